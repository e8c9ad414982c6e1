package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Retain and release from many threads: no double free, no lost buffer, no corrupted bytes. */
@ExtendWith(TestSeedExtension.class)
class RefCntConcurrencyTest {

  private static final int THREADS = 4;

  @Test
  void concurrentRetainReleaseFreesExactlyOnce() throws Exception {
    for (int round = 0; round < 50; round++) {
      AtomicInteger recycled = new AtomicInteger();
      RefCnt refCnt = RefCnt.pooled(token -> recycled.incrementAndGet(), 0, "test count");
      Buf buf = Buf.wrap(MemorySegment.ofArray(new byte[16]), refCnt);
      Buf shared = buf;
      runConcurrently(
          THREADS,
          id -> {
            for (int i = 0; i < 10_000; i++) {
              Buf slice = shared.retainedSlice(0, 8);
              slice.getLong(0);
              slice.release();
            }
          });
      assertEquals(1, buf.refCnt());
      assertEquals(0, recycled.get());
      buf.release();
      assertEquals(1, recycled.get());
      assertThrows(IllegalStateException.class, buf::release);
      assertEquals(1, recycled.get());
    }
  }

  @Test
  void racingLastReleasesHaveExactlyOneWinner() throws Exception {
    for (int round = 0; round < 200; round++) {
      AtomicInteger recycled = new AtomicInteger();
      AtomicInteger winners = new AtomicInteger();
      Buf buf =
          Buf.wrap(
              new MemorySegment[] {MemorySegment.ofArray(new byte[8])},
              RefCnt.pooled(token -> recycled.incrementAndGet(), 0, "test count"));
      buf.retain(THREADS - 1);
      runConcurrently(
          THREADS,
          id -> {
            if (buf.release()) {
              winners.incrementAndGet();
            }
          });
      assertEquals(1, winners.get(), "round " + round);
      assertEquals(1, recycled.get(), "round " + round);
    }
  }

  @Test
  void pooledBuffersHandedBetweenThreadsKeepTheirBytes(TestSeed seed) throws Exception {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 4096, 24, 512))) {
      BlockingQueue<Buf> handoff = new ArrayBlockingQueue<>(64);
      AtomicInteger stamps = new AtomicInteger();
      runConcurrently(
          THREADS,
          id -> {
            Random random = new Random(seed.value() + id);
            List<Buf> mine = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
              int size = 1 + random.nextInt(3 * 4096);
              Buf buf = allocator.allocate(size);
              int stamp = stamps.incrementAndGet();
              fill(buf, stamp);
              if (random.nextInt(4) == 0 && handoff.offer(buf.retainedDuplicate())) {
                buf.release();
              } else {
                mine.add(buf);
              }
              Buf received = handoff.poll();
              if (received != null) {
                verify(received);
                received.release();
              }
              if (mine.size() > 3 || random.nextBoolean()) {
                for (Buf held : mine) {
                  verify(held);
                  held.release();
                }
                mine.clear();
              }
            }
            for (Buf held : mine) {
              verify(held);
              held.release();
            }
          });
      for (Buf left = handoff.poll(); left != null; left = handoff.poll()) {
        verify(left);
        left.release();
      }
      BufAllocatorStats stats = allocator.stats();
      assertEquals(0, stats.usedBufferCount(), stats.toString());
      assertEquals(stats.totalBufferCount(), stats.freeBufferCount());
    }
  }

  /** Writes {@code stamp} into the first word and a stamp-derived pattern after it. */
  private static void fill(Buf buf, int stamp) {
    int capacity = buf.capacity();
    if (capacity < Integer.BYTES) {
      return;
    }
    buf.putInt(0, stamp);
    for (int i = Integer.BYTES; i < capacity; i++) {
      buf.putByte(i, (byte) (stamp * 31 + i));
    }
  }

  private static void verify(Buf buf) {
    int capacity = buf.capacity();
    if (capacity < Integer.BYTES) {
      return;
    }
    int stamp = buf.getInt(0);
    for (int i = Integer.BYTES; i < capacity; i++) {
      if (buf.getByte(i) != (byte) (stamp * 31 + i)) {
        throw new AssertionError(
            "buffer with stamp " + stamp + " was overwritten at index " + i + " of " + capacity);
      }
    }
  }

  interface Worker {
    void run(int id) throws Exception;
  }

  static void runConcurrently(int threads, Worker worker) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await(10, TimeUnit.SECONDS);
                  worker.run(id);
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "refcnt-stress-" + t);
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
  }
}
