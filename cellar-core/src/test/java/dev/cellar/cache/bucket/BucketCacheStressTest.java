package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.TestBlock;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many threads read random blocks through a bucket cache about a tenth the size of the data, so it
 * evicts all the time: a miss builds the block from its source and caches it, as a block loader
 * does, and every byte of every block returned is checked. Some threads also evict blocks and whole
 * files. At the end, with the cache shut down, every slot is back in the allocator and every pooled
 * buffer in its pool.
 *
 * <p>CI runs a few seconds per engine; {@code -Dcellar.stress.seconds=N} (through {@code
 * -Dcellar.test.extraJvmArgs}) runs longer, see docs/guide/testing.md.
 */
@ExtendWith(TestSeedExtension.class)
class BucketCacheStressTest {

  static final int[] SIZES = {5120, 9216, 17408, 33792};
  static final long BUCKET = 4L * 33792;
  static final int FILES = 4;
  static final int BLOCKS_PER_FILE = 600;
  static final int THREADS = 6;

  @TempDir Path directory;

  private static long seconds() {
    return Long.getLong("cellar.stress.seconds", 2);
  }

  private static String file(int index) {
    return "stress-file-" + index;
  }

  /** Block sizes from 200 bytes to 30 KB, fixed per key, so every size class is used. */
  private static int size(BlockCacheKey key) {
    long mixed = (key.offset() * 0x9E3779B97F4A7C15L) ^ key.fileName().hashCode();
    return 200 + (int) Math.floorMod(mixed, 30_000L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"offheap", "file"})
  void readersOnlyEverSeeTheirBlocksBytesAndNothingLeaks(String engine, TestSeed seed)
      throws Exception {
    BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 32768, 512, 0));
    String spec = engine.equals("file") ? "file:" + directory.resolve("stress.data") : engine;
    long dataBytes = (long) FILES * BLOCKS_PER_FILE * 15_000;
    long buckets = Math.max(SIZES.length, dataBytes / 10 / BUCKET);
    BucketCache cache =
        BucketCache.create(
            BucketCacheConfig.of(spec, buckets * BUCKET).withBucketSizes(SIZES), allocator);
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    LongAdder reads = new LongAdder();
    LongAdder hits = new LongAdder();
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds()).toNanos();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      SplittableRandom random = new SplittableRandom(seed.value() + t);
      boolean evicts = t == 0;
      workers.add(
          Thread.ofPlatform()
              .name("bucket-stress-" + t)
              .start(
                  () -> {
                    try {
                      start.await();
                      while (System.nanoTime() < deadline && failures.isEmpty()) {
                        BlockCacheKey key =
                            new BlockCacheKey(
                                file(random.nextInt(FILES)),
                                random.nextInt(BLOCKS_PER_FILE) * 65_536L);
                        if (evicts && random.nextInt(100) == 0) {
                          cache.evictBlock(key);
                          continue;
                        }
                        if (evicts && random.nextInt(20_000) == 0) {
                          cache.evictBlocksByHfileName(key.fileName());
                          continue;
                        }
                        read(cache, allocator, key, failures, hits);
                        reads.increment();
                      }
                    } catch (Throwable e) {
                      failures.add(Thread.currentThread().getName() + ": " + e);
                    }
                  }));
    }
    start.countDown();
    for (Thread worker : workers) {
      assertTrue(worker.join(Duration.ofSeconds(seconds() + 60)), "worker did not finish");
    }
    BucketCacheSnapshot snapshot = cache.snapshot();
    cache.shutdown();
    String context = "engine " + engine + ", " + reads.sum() + " reads, " + hits.sum() + " hits";
    assertTrue(failures.isEmpty(), context + ": " + failures);
    assertTrue(hits.sum() > 0, context + ": no hits");
    assertTrue(snapshot.stats().evictedBlockCount() > 0, context + ": never evicted");
    assertEquals(0, cache.liveEntries(), context + ": slots still allocated");
    assertEquals(0, cache.usedSlotBytes(), context + ": allocator not back to empty");
    assertEquals(0, allocator.stats().usedBufferCount(), context + ": pooled buffers in use");
    allocator.close();
  }

  private static void read(
      BucketCache cache,
      BufAllocator allocator,
      BlockCacheKey key,
      Queue<String> failures,
      LongAdder hits) {
    int size = size(key);
    Cacheable block = cache.getBlockRetained(key, true, false, true);
    if (block != null) {
      hits.increment();
    } else {
      block = TestBlock.allocate(allocator, key, size, BlockCategory.DATA);
      cache.cacheBlock(key, block, false);
    }
    try {
      int mismatch = TestBlock.firstMismatch(block, key, size);
      if (mismatch >= 0) {
        failures.add(key + " differs at byte " + mismatch);
      }
    } finally {
      block.release();
    }
  }
}
