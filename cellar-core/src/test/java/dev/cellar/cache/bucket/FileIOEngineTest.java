package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FileIOEngineTest extends IOEngineContractTest {

  @Override
  IOEngine create(Path dir, long capacity, long segmentSize) throws IOException {
    return new FileIOEngine(List.of(dir.resolve("cache.data")), capacity, segmentSize, false);
  }

  @Override
  boolean expectPersistent() {
    return true;
  }

  @Override
  boolean expectSharesMemory() {
    return false;
  }

  @Test
  void describesItsFile() {
    assertEquals("file:" + dir.resolve("cache.data"), engine.description());
  }

  @Test
  void keepsAFileOfTheRightSizeUntouchedWhenKeepingExisting() throws IOException {
    Path path = dir.resolve("kept.data");
    byte[] bytes = randomBytes(SEGMENT);
    try (IOEngine first = open(path, CAPACITY, true)) {
      writeTo(first, CAPACITY - SEGMENT, bytes);
      first.sync();
    }
    FileTime past = FileTime.from(Instant.parse("2020-01-02T03:04:05Z"));
    Files.setLastModifiedTime(path, past);
    try (IOEngine kept = open(path, CAPACITY, true)) {
      assertEquals(past, Files.getLastModifiedTime(path), "the file is not even resized");
      assertArrayEquals(bytes, readFrom(kept, CAPACITY - SEGMENT, SEGMENT));
    }
  }

  @Test
  void recreatesAFileOfAnotherSize() throws IOException {
    Path path = dir.resolve("resized.data");
    Files.write(path, randomBytes(SEGMENT + 1));
    try (IOEngine engine = open(path, CAPACITY, true)) {
      assertEquals(CAPACITY, Files.size(path));
      assertArrayEquals(new byte[SEGMENT], readFrom(engine, 0, SEGMENT));
    }
  }

  @Test
  void recreatesAFileOfTheRightSizeWhenNotKeepingExisting() throws IOException {
    Path path = dir.resolve("dropped.data");
    Files.write(path, randomBytes((int) CAPACITY));
    try (IOEngine engine = open(path, CAPACITY, false)) {
      assertEquals(CAPACITY, Files.size(path));
      assertArrayEquals(new byte[SEGMENT], readFrom(engine, CAPACITY - SEGMENT, SEGMENT));
    }
  }

  private static IOEngine open(Path path, long capacity, boolean keepExisting) throws IOException {
    return new FileIOEngine(List.of(path), capacity, SEGMENT, keepExisting);
  }

  /**
   * An interrupt during a channel read closes the channel for every thread (the JDK's
   * ClosedByInterruptException); the interrupted reader fails, and a reader on another thread,
   * running at the time or coming later, finds the channel reopened.
   */
  @Test
  void anInterruptedReaderDoesNotBreakTheEngineForOtherThreads() throws Exception {
    byte[] oracle = fill();
    AtomicLong victimReads = new AtomicLong();
    AtomicReference<Throwable> victimFailure = new AtomicReference<>();
    Thread victim =
        new Thread(
            () -> {
              Buf buf = Buf.wrap(new byte[SEGMENT]);
              try {
                for (; ; ) {
                  engine.read(SEGMENT, buf, 0, SEGMENT);
                  victimReads.incrementAndGet();
                }
              } catch (Throwable e) {
                victimFailure.set(e);
              }
            },
            "interrupted-reader");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong bystanderReads = new AtomicLong();
    AtomicReference<Throwable> bystanderFailure = new AtomicReference<>();
    Thread bystander =
        new Thread(
            () -> {
              try {
                while (!stop.get()) {
                  assertArrayEquals(
                      Arrays.copyOfRange(oracle, 0, SEGMENT), readFrom(engine, 0, SEGMENT));
                  bystanderReads.incrementAndGet();
                }
              } catch (Throwable e) {
                bystanderFailure.set(e);
              }
            },
            "bystander-reader");
    victim.start();
    bystander.start();
    awaitAtLeast(victimReads, 20, victimFailure);
    awaitAtLeast(bystanderReads, 20, bystanderFailure);
    victim.interrupt();
    victim.join(TimeUnit.SECONDS.toMillis(10));
    long afterInterrupt = bystanderReads.get();
    awaitAtLeast(bystanderReads, afterInterrupt + 20, bystanderFailure);
    stop.set(true);
    bystander.join(TimeUnit.SECONDS.toMillis(10));

    Throwable failure = victimFailure.get();
    assertInstanceOf(InterruptedIOException.class, failure);
    assertInstanceOf(ClosedByInterruptException.class, failure.getCause());
    assertTrue(
        failure.getMessage().contains("cache.data: reading at offset "), failure.getMessage());
    assertNull(bystanderFailure.get(), () -> "bystander failed: " + bystanderFailure.get());
    assertContent(oracle);
  }

  /** Waits until {@code counter} reaches {@code target}, failing early if its thread failed. */
  private static void awaitAtLeast(
      AtomicLong counter, long target, AtomicReference<Throwable> failure)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (counter.get() < target) {
      if (failure.get() != null) {
        throw new AssertionError("reader failed before " + target + " reads", failure.get());
      }
      assertTrue(System.nanoTime() < deadline, "timed out waiting for " + target + " reads");
      Thread.sleep(1);
    }
  }
}
