package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random allocations and frees against {@link AllocatorOracle}, on a small allocator that runs full
 * and moves buckets between classes often. Four runs, from the test's seed and the three after it;
 * every assertion message names its run's seed.
 */
@ExtendWith(TestSeedExtension.class)
class BucketAllocatorRandomizedTest {

  /** 16 KiB buckets with 64, 32, 12 (plus a 1 KiB tail), 8 and 4 slots. */
  static final int[] SIZES = {256, 512, 1280, 2048, 4096};

  /** 24 whole buckets and a partial one the allocator must leave unused. */
  static final long CAPACITY = 24 * 16384 + 1000;

  private static final int OPERATIONS = 20_000;
  private static final int CHECK_EVERY = 16;
  private static final int PHASE = 2_000;

  @Test
  void randomAllocationsAndFreesAgreeWithTheOracle(TestSeed seed) {
    for (int i = 0; i < 4; i++) {
      runSeed(seed.value() + i);
    }
  }

  private static void runSeed(long seed) {
    Random random = new Random(seed);
    AllocatorOracle oracle = new AllocatorOracle("seed=" + seed);
    BucketAllocator allocator = new BucketAllocator(CAPACITY, SIZES);
    Coverage coverage = exercise(allocator, oracle, random, OPERATIONS);
    assertTrue(coverage.fullAllocations() > 0, "seed=" + seed + ": the cache never ran full");
    assertTrue(coverage.bucketMoves() > 0, "seed=" + seed + ": no bucket changed class");
    oracle.freeAll(allocator, random);
    oracle.check(allocator);
    assertEquals(0, allocator.usedSize(), "seed=" + seed);
  }

  /** How often a run found the cache full, and how often a class's bucket count changed. */
  record Coverage(int fullAllocations, int bucketMoves) {}

  /**
   * Allocates and frees at random, with lengths drawn mostly from one "hot" class that changes
   * every {@link #PHASE} operations, so classes run out and steal each other's buckets.
   */
  static Coverage exercise(
      BucketAllocator allocator, AllocatorOracle oracle, Random random, int operations) {
    int hot = 0;
    int full = 0;
    int moves = 0;
    int[] buckets = bucketCounts(allocator);
    for (int op = 0; op < operations; op++) {
      if (op % PHASE == 0) {
        hot = random.nextInt(SIZES.length);
      }
      if (oracle.size() > 0 && random.nextInt(100) < 45) {
        oracle.freeRandom(allocator, random);
      } else {
        int sizeClass = random.nextInt(100) < 70 ? hot : random.nextInt(SIZES.length);
        int length = randomLength(random, sizeClass);
        long offset = allocator.allocate(length);
        if (offset < 0) {
          full++;
          oracle.checkFull(allocator, length);
          oracle.check(allocator);
        } else {
          oracle.allocated(allocator, offset, length);
        }
      }
      if (op % CHECK_EVERY == 0) {
        oracle.check(allocator);
        int[] now = bucketCounts(allocator);
        moves += Arrays.equals(buckets, now) ? 0 : 1;
        buckets = now;
      }
    }
    oracle.check(allocator);
    return new Coverage(full, moves);
  }

  private static int[] bucketCounts(BucketAllocator allocator) {
    return allocator.sizeClassStats().stream().mapToInt(SizeClassStats::bucketCount).toArray();
  }

  /** A length that rounds up to class {@code sizeClass}, often exactly its size. */
  static int randomLength(Random random, int sizeClass) {
    int low = sizeClass == 0 ? 1 : SIZES[sizeClass - 1] + 1;
    int high = SIZES[sizeClass];
    return random.nextInt(4) == 0 ? high : low + random.nextInt(high - low + 1);
  }

  @Test
  void concurrentAllocationsAndFreesKeepTheAccountingExact(TestSeed seed) throws Exception {
    BucketAllocator allocator = new BucketAllocator(CAPACITY, SIZES);
    ConcurrentHashMap<Long, Integer> owned = new ConcurrentHashMap<>();
    int threads = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Random random = new Random(seed.value() + t);
        runs.add(
            pool.submit(
                () -> {
                  start.await();
                  List<long[]> mine = new ArrayList<>();
                  for (int op = 0; op < 20_000; op++) {
                    if (!mine.isEmpty() && random.nextBoolean()) {
                      long[] entry = mine.remove(random.nextInt(mine.size()));
                      owned.remove(entry[0]);
                      allocator.free(entry[0], (int) entry[1]);
                    } else {
                      int length = randomLength(random, random.nextInt(SIZES.length));
                      long offset = allocator.allocate(length);
                      if (offset >= 0) {
                        assertNull(owned.putIfAbsent(offset, length), "offset " + offset);
                        mine.add(new long[] {offset, length});
                      }
                    }
                  }
                  for (long[] entry : mine) {
                    owned.remove(entry[0]);
                    allocator.free(entry[0], (int) entry[1]);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(owned.isEmpty());
    assertEquals(0, allocator.usedSize());
    assertEquals(0, allocator.usedCount());
    new AllocatorOracle("after the threads").check(allocator);
  }
}
