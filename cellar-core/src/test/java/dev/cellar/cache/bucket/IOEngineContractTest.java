package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.memory.RefCnt;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link IOEngine} shares, checked against a {@code byte[]} oracle of the whole
 * capacity. Subclasses say how to make the engine and what kind it is. Every access stays inside
 * one segment, as the bucket cache's allocation guarantees.
 */
@ExtendWith(TestSeedExtension.class)
abstract class IOEngineContractTest {

  static final int SEGMENT = 16 * 1024;
  static final int SEGMENTS = 8;
  static final long CAPACITY = (long) SEGMENT * SEGMENTS;
  private static final int THREADS = 4;

  @TempDir Path dir;

  IOEngine engine;
  Random random;
  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, 4096, 64, 0));

  /** A new engine of {@code capacity} bytes whose accesses stay inside segments. */
  abstract IOEngine create(Path dir, long capacity, long segmentSize) throws IOException;

  abstract boolean expectPersistent();

  abstract boolean expectSharesMemory();

  @BeforeEach
  void openEngine(TestSeed seed) throws IOException {
    random = new Random(seed.value());
    engine = create(dir, CAPACITY, SEGMENT);
  }

  @AfterEach
  void closeEngine() throws IOException {
    engine.close();
    allocator.close();
  }

  byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Writes {@code bytes} at {@code offset} from a heap buffer, at a random index inside it. */
  void write(long offset, byte[] bytes) throws IOException {
    int srcIndex = random.nextInt(32);
    Buf src = Buf.wrap(new byte[srcIndex + bytes.length + 7]);
    src.putBytes(srcIndex, bytes, 0, bytes.length);
    engine.write(src, srcIndex, bytes.length, offset);
  }

  /** Reads {@code length} bytes at {@code offset} through a heap buffer. */
  byte[] read(long offset, int length) throws IOException {
    int dstIndex = random.nextInt(32);
    Buf dst = Buf.wrap(new byte[dstIndex + length + 5]);
    engine.read(offset, dst, dstIndex, length);
    return dst.getBytes(dstIndex, length);
  }

  /** Fills the whole engine, segment by segment, and returns what it holds. */
  byte[] fill() throws IOException {
    byte[] oracle = randomBytes((int) CAPACITY);
    for (int segment = 0; segment < SEGMENTS; segment++) {
      write(
          (long) segment * SEGMENT,
          Arrays.copyOfRange(oracle, segment * SEGMENT, (segment + 1) * SEGMENT));
    }
    return oracle;
  }

  /** Reads {@code length} bytes at {@code offset} of any engine. */
  static byte[] readFrom(IOEngine engine, long offset, int length) throws IOException {
    Buf dst = Buf.wrap(new byte[length]);
    engine.read(offset, dst, 0, length);
    return dst.getBytes(0, length);
  }

  /** Writes {@code bytes} at {@code offset} of any engine. */
  static void writeTo(IOEngine engine, long offset, byte[] bytes) throws IOException {
    engine.write(Buf.wrap(bytes), 0, bytes.length, offset);
  }

  void assertContent(byte[] oracle) throws IOException {
    for (int segment = 0; segment < SEGMENTS; segment++) {
      int start = segment * SEGMENT;
      assertArrayEquals(
          Arrays.copyOfRange(oracle, start, start + SEGMENT),
          read(start, SEGMENT),
          "segment " + segment);
    }
  }

  @Test
  void reportsWhatItIs() {
    assertEquals(CAPACITY, engine.capacity());
    assertEquals(expectPersistent(), engine.isPersistent());
    assertEquals(expectSharesMemory(), engine.sharesMemory());
    assertFalse(engine.description().isBlank());
  }

  @Test
  void roundTripsAtRandomOffsetsAndLengthsWithinSegments() throws IOException {
    byte[] oracle = fill();
    for (int i = 0; i < 400; i++) {
      int segment = random.nextInt(SEGMENTS);
      int length = 1 + random.nextInt(random.nextInt(8) == 0 ? SEGMENT : 2048);
      int offset = segment * SEGMENT + random.nextInt(SEGMENT - length + 1);
      byte[] bytes = randomBytes(length);
      write(offset, bytes);
      System.arraycopy(bytes, 0, oracle, offset, length);
      int readLength = 1 + random.nextInt(SEGMENT);
      int readOffset = segment * SEGMENT + random.nextInt(SEGMENT - readLength + 1);
      assertArrayEquals(
          Arrays.copyOfRange(oracle, readOffset, readOffset + readLength),
          read(readOffset, readLength),
          "read of " + readLength + " at " + readOffset + " after op " + i);
    }
    engine.sync();
    assertContent(oracle);
  }

  @Test
  void firstAndLastBytesAndSegmentBoundariesRoundTrip() throws IOException {
    byte[] oracle = fill();
    for (int segment = 0; segment < SEGMENTS; segment++) {
      int start = segment * SEGMENT;
      int end = start + SEGMENT;
      byte[] head = randomBytes(1 + random.nextInt(300));
      byte[] tail = randomBytes(1 + random.nextInt(300));
      write(start, head);
      write(end - tail.length, tail);
      write(start, new byte[] {(byte) segment});
      write(end - 1, new byte[] {(byte) ~segment});
      System.arraycopy(head, 0, oracle, start, head.length);
      System.arraycopy(tail, 0, oracle, end - tail.length, tail.length);
      oracle[start] = (byte) segment;
      oracle[end - 1] = (byte) ~segment;
    }
    assertArrayEquals(new byte[] {oracle[0]}, read(0, 1));
    assertArrayEquals(new byte[] {oracle[(int) CAPACITY - 1]}, read(CAPACITY - 1, 1));
    engine.read(CAPACITY, Buf.wrap(new byte[0]), 0, 0);
    assertContent(oracle);
  }

  @Test
  void readsIntoAndWritesFromPooledBuffers() throws IOException {
    byte[] oracle = fill();
    long offset = 2L * SEGMENT + 100;
    Buf single = allocator.allocateContiguous(3000);
    Buf composite = allocator.allocate(10_000);
    try {
      assertTrue(single.isDirect() && single.isSingleSegment());
      assertFalse(composite.isSingleSegment());
      engine.read(offset, single, 0, 3000);
      assertArrayEquals(
          Arrays.copyOfRange(oracle, (int) offset, (int) offset + 3000), single.getBytes(0, 3000));
      engine.read(offset + 7, composite, 50, 9000);
      assertArrayEquals(
          Arrays.copyOfRange(oracle, (int) offset + 7, (int) offset + 9007),
          composite.getBytes(50, 9000));

      byte[] bytes = randomBytes(10_000);
      composite.putBytes(0, bytes, 0, bytes.length);
      long target = 5L * SEGMENT + 11;
      engine.write(composite, 3, 9990, target);
      System.arraycopy(bytes, 3, oracle, (int) target, 9990);
      single.putBytes(0, bytes, 0, 3000);
      engine.write(single, 0, 3000, CAPACITY - 3000);
      System.arraycopy(bytes, 0, oracle, (int) CAPACITY - 3000, 3000);
    } finally {
      single.release();
      composite.release();
    }
    assertContent(oracle);
  }

  @Test
  void viewsSeeLaterWritesAndShareTheEntryCount() throws IOException {
    assumeTrue(expectSharesMemory());
    AtomicInteger recycled = new AtomicInteger();
    RefCnt entry = RefCnt.pooled(token -> recycled.incrementAndGet(), 0, "test cache entry");
    long offset = CAPACITY - 500;
    write(offset, randomBytes(500));
    Buf view = engine.view(offset, 500, entry);
    assertEquals(500, view.capacity());
    assertEquals(1, view.refCnt(), "a view adds no reference");

    byte[] later = randomBytes(500);
    write(offset, later);
    assertArrayEquals(later, view.getBytes(0, 500));
    view.putByte(499, (byte) 42);
    assertArrayEquals(new byte[] {42}, read(CAPACITY - 1, 1), "writes through a view land");

    entry.retain();
    assertEquals(2, view.refCnt());
    view.release();
    assertEquals(1, entry.refCnt());
    assertEquals(0, recycled.get());
    assertTrue(view.release());
    assertEquals(1, recycled.get());
    assertThrows(IllegalStateException.class, () -> view.getByte(0));
  }

  @Test
  void viewsAtSegmentEdges() throws IOException {
    assumeTrue(expectSharesMemory());
    byte[] oracle = fill();
    RefCnt entry = RefCnt.unpooled();
    for (int segment = 0; segment < SEGMENTS; segment++) {
      int start = segment * SEGMENT;
      assertArrayEquals(
          Arrays.copyOfRange(oracle, start, start + SEGMENT),
          engine.view(start, SEGMENT, entry).getBytes(0, SEGMENT));
    }
  }

  @Test
  void copyingEnginesRefuseViews() {
    assumeFalse(expectSharesMemory());
    assertThrows(UnsupportedOperationException.class, () -> engine.view(0, 10, RefCnt.unpooled()));
  }

  @Test
  void concurrentDisjointWritesAndReadsKeepEveryByte(TestSeed seed) throws Exception {
    byte[] oracle = fill();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        long threadSeed = seed.value() + t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  exerciseOwnSegments(thread, new Random(threadSeed), oracle);
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertContent(oracle);
  }

  /** Writes and reads back random ranges of the segments {@code thread} owns (every 4th one). */
  private void exerciseOwnSegments(int thread, Random random, byte[] oracle) throws IOException {
    for (int i = 0; i < 300; i++) {
      int segment = thread + THREADS * random.nextInt(SEGMENTS / THREADS);
      int length = 1 + random.nextInt(4096);
      int offset = segment * SEGMENT + random.nextInt(SEGMENT - length + 1);
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      Buf buf = allocator.allocate(length);
      try {
        buf.putBytes(0, bytes, 0, length);
        engine.write(buf, 0, length, offset);
        System.arraycopy(bytes, 0, oracle, offset, length);
        Arrays.fill(bytes, (byte) 0);
        buf.putBytes(0, bytes, 0, length);
        engine.read(offset, buf, 0, length);
        assertArrayEquals(
            Arrays.copyOfRange(oracle, offset, offset + length),
            buf.getBytes(0, length),
            "thread " + thread + ", op " + i);
      } finally {
        buf.release();
      }
    }
  }

  @Test
  void outOfRangeAccessesNameEngineOffsetLengthAndCapacity() {
    Buf buf = Buf.wrap(new byte[64]);
    assertOutOfRange(-1, 1, () -> engine.read(-1, buf, 0, 1));
    assertOutOfRange(CAPACITY - 10, 11, () -> engine.read(CAPACITY - 10, buf, 0, 11));
    assertOutOfRange(CAPACITY, 1, () -> engine.write(buf, 0, 1, CAPACITY));
    assertOutOfRange(-5, 3, () -> engine.write(buf, 0, 3, -5));
    assertOutOfRange(0, -1, () -> engine.read(0, buf, 0, -1));
    assertOutOfRange(Long.MAX_VALUE, 2, () -> engine.write(buf, 0, 2, Long.MAX_VALUE));
    if (expectSharesMemory()) {
      assertOutOfRange(CAPACITY - 1, 2, () -> engine.view(CAPACITY - 1, 2, RefCnt.unpooled()));
    }
  }

  private void assertOutOfRange(long offset, long length, Executable access) {
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, access);
    String message = e.getMessage();
    assertTrue(message.startsWith(engine.description() + ": "), message);
    assertTrue(message.contains(length + " bytes at offset " + offset), message);
    assertTrue(message.contains("capacity of " + CAPACITY + " bytes"), message);
  }
}
