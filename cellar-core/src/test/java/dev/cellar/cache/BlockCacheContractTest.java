package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The behaviour every {@link BlockCache} shares: lookups hand out retained blocks that stay
 * readable after eviction until released, eviction by key and by file, size accounting, statistics,
 * and concurrent use with every returned byte checked. Blocks come from a pooled allocator, which
 * must be back to no buffer in use when each test ends.
 */
@ExtendWith(TestSeedExtension.class)
public abstract class BlockCacheContractTest {

  protected static final int BLOCK_SIZE = 4096;

  /** Capacity for the functional tests: room for 64 blocks with generous per-block overhead. */
  protected static final long ROOMY = 64L * (BLOCK_SIZE + 1024);

  protected BufAllocator allocator;
  private final List<BlockCache> caches = new ArrayList<>();
  private final String file = "contract-" + getClass().getSimpleName() + "-" + System.nanoTime();

  /** A new, empty cache of {@code capacity} bytes. */
  protected abstract BlockCache newCache(long capacity);

  @BeforeEach
  void createAllocator() {
    allocator = new BufAllocator(new BufAllocatorConfig(true, BLOCK_SIZE, 256, 0));
  }

  @AfterEach
  void shutDownAndCheckAllocator() {
    caches.forEach(BlockCache::shutdown);
    assertEquals(0, allocator.stats().usedBufferCount(), "pooled buffers still in use");
    allocator.close();
  }

  /**
   * Waits until the blocks offered to {@code cache} so far are stored, for caches that store them
   * asynchronously; the default does nothing.
   */
  protected void settle(BlockCache cache) {}

  protected final BlockCache cache(long capacity) {
    BlockCache cache = newCache(capacity);
    caches.add(cache);
    return cache;
  }

  protected final BlockCacheKey key(long offset) {
    return new BlockCacheKey(file, offset);
  }

  /** Caches a pooled block for {@code key} and releases the caller's reference. */
  protected final void put(BlockCache cache, BlockCacheKey key, BlockCategory category) {
    TestBlock block = TestBlock.allocate(allocator, key, BLOCK_SIZE, category);
    try {
      cache.cacheBlock(key, block, false);
    } finally {
      block.release();
    }
  }

  /** Asserts that {@code block} holds the bytes {@link #put} cached for {@code key}. */
  protected static void assertBytes(Cacheable block, BlockCacheKey key) {
    assertEquals(-1, TestBlock.firstMismatch(block, key, BLOCK_SIZE), "bytes of " + key);
  }

  @Test
  void getReturnsARetainedBlockWithTheCachedBytes() {
    BlockCache cache = cache(ROOMY);
    BlockCacheKey key = key(0);
    put(cache, key, BlockCategory.DATA);

    Cacheable first = cache.getBlockRetained(key, true, false, true);
    assertNotNull(first);
    assertTrue(first.refCnt() >= 1);
    assertBytes(first, key);
    Cacheable second = cache.getBlockRetained(key, true, false, true);
    assertBytes(second, key);
    first.release();
    assertBytes(second, key);
    second.release();
    assertTrue(cache.containsBlock(key));
  }

  @Test
  void missReturnsNull() {
    BlockCache cache = cache(ROOMY);
    assertNull(cache.getBlockRetained(key(8192), true, false, true));
    assertFalse(cache.containsBlock(key(8192)));
  }

  @Test
  void heldBlockStaysReadableAfterEvictionUntilReleased() {
    BlockCache cache = cache(ROOMY);
    BlockCacheKey key = key(4096);
    put(cache, key, BlockCategory.INDEX);
    Cacheable held = cache.getBlockRetained(key, true, false, true);

    assertTrue(cache.evictBlock(key));
    assertFalse(cache.evictBlock(key));
    assertNull(cache.getBlockRetained(key, true, false, true));
    assertBytes(held, key);
    held.release();
  }

  @Test
  void evictBlocksByHfileNameRemovesOnlyThatFile() {
    BlockCache cache = cache(ROOMY);
    String other = file + "-other";
    for (int i = 0; i < 3; i++) {
      put(cache, key(i * 10_000L), BlockCategory.DATA);
    }
    for (int i = 0; i < 2; i++) {
      put(cache, new BlockCacheKey(other, i * 10_000L), BlockCategory.DATA);
    }

    assertEquals(3, cache.evictBlocksByHfileName(file));
    assertEquals(0, cache.evictBlocksByHfileName(file));
    assertEquals(0, cache.evictBlocksByHfileName(file + "-never-cached"));
    settle(cache);
    assertEquals(2, cache.blockCount());
    assertFalse(cache.containsBlock(key(0)));
    assertTrue(cache.containsBlock(new BlockCacheKey(other, 10_000L)));
  }

  /**
   * A reader offers blocks under its own probe, re-pointed at the next block (and finally at
   * another file) right after each offer: the cache keeps a key of its own, so every block is found
   * under its key and evicted with its file.
   */
  @Test
  void aBlockOfferedUnderAProbeKeepsItsOwnKey() {
    BlockCache cache = cache(ROOMY);
    BlockCacheKey.Probe probe = new BlockCacheKey.Probe();
    for (int i = 0; i < 4; i++) {
      BlockCacheKey key = key(i * 10_000L);
      TestBlock block = TestBlock.allocate(allocator, key, BLOCK_SIZE, BlockCategory.DATA);
      try {
        cache.cacheBlock(probe.set(key.fileName(), key.fileId(), key.offset(), null), block, false);
      } finally {
        block.release();
      }
    }
    String other = file + "-probe";
    probe.set(other, FileIds.idOf(other), 0, null);
    settle(cache);
    assertEquals(4, cache.blockCount());
    for (int i = 0; i < 4; i++) {
      BlockCacheKey key = key(i * 10_000L);
      Cacheable hit = cache.getBlockRetained(key, true, false, true);
      assertNotNull(hit, "block " + i);
      try {
        assertBytes(hit, key);
      } finally {
        hit.release();
      }
    }
    assertFalse(cache.containsBlock(probe));
    assertEquals(0, cache.evictBlocksByHfileName(other));
    assertEquals(4, cache.evictBlocksByHfileName(file));
    settle(cache);
    assertEquals(0, cache.blockCount());
  }

  @Test
  void sizeAccountingFollowsInsertsAndEvictions() {
    BlockCache cache = cache(ROOMY);
    long emptySize = cache.size();
    long emptyFree = cache.freeSize();
    assertEquals(0, cache.blockCount());

    for (int i = 0; i < 3; i++) {
      put(cache, key(i * 100_000L), BlockCategory.DATA);
    }
    settle(cache);
    assertEquals(3, cache.blockCount());
    assertTrue(cache.size() - emptySize >= 3L * BLOCK_SIZE, "size " + cache.size());
    assertEquals(emptySize + emptyFree, cache.size() + cache.freeSize());

    for (int i = 0; i < 3; i++) {
      assertTrue(cache.evictBlock(key(i * 100_000L)));
    }
    assertEquals(0, cache.blockCount());
    assertEquals(emptySize, cache.size());
    assertEquals(emptyFree, cache.freeSize());
  }

  @Test
  void cachingAnExistingKeyKeepsOneBlock() {
    BlockCache cache = cache(ROOMY);
    BlockCacheKey key = key(777);
    put(cache, key, BlockCategory.META);
    settle(cache);
    long size = cache.size();
    put(cache, key, BlockCategory.META);
    settle(cache);

    assertEquals(1, cache.blockCount());
    assertEquals(size, cache.size());
    Cacheable block = cache.getBlockRetained(key, true, false, true);
    assertBytes(block, key);
    block.release();
  }

  @Test
  void statsCountHitsAndMissesByCachingAndCategory() {
    BlockCache cache = cache(ROOMY);
    put(cache, key(0), BlockCategory.DATA);
    put(cache, key(1), BlockCategory.BLOOM);

    cache.getBlockRetained(key(0), true, false, true).release();
    cache.getBlockRetained(key(1), false, false, true).release();
    cache.getBlockRetained(key(1), true, false, false).release();
    assertNull(
        cache.getBlockRetained(new BlockCacheKey(file, 2, BlockCategory.INDEX), true, false, true));
    assertNull(cache.getBlockRetained(key(3), false, false, true));
    assertNull(cache.getBlockRetained(key(3), false, true, true));

    CacheStats.Snapshot stats = cache.stats().snapshot();
    assertEquals(2, stats.hitCount());
    assertEquals(1, stats.hitCachingCount());
    assertEquals(2, stats.missCount());
    assertEquals(1, stats.missCachingCount());
    assertEquals(1, stats.hits(BlockCategory.DATA));
    assertEquals(1, stats.hits(BlockCategory.BLOOM));
    assertEquals(1, stats.misses(BlockCategory.INDEX));
    assertEquals(0, stats.misses(BlockCategory.DATA));
    assertEquals(0.5, stats.hitRatio(), 1e-9);
    assertEquals(0.5, stats.hitCachingRatio(), 1e-9);
    assertEquals(0, stats.failedInsertions());
  }

  @Test
  void concurrentCacheGetAndEvictReturnOnlyCorrectBytes(TestSeed seed) throws InterruptedException {
    BlockCache cache = cache(16L * (BLOCK_SIZE + 1024));
    int threads = 4;
    int keys = 128;
    int operations = 3000;
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(seed.value() + t);
      workers.add(
          Thread.ofPlatform()
              .name("cache-contract-worker-" + t)
              .start(
                  () -> {
                    try {
                      start.await();
                      for (int i = 0; i < operations; i++) {
                        BlockCacheKey key = key(random.nextInt(keys) * (long) BLOCK_SIZE);
                        int op = random.nextInt(10);
                        if (op < 5) {
                          Cacheable block = cache.getBlockRetained(key, true, false, true);
                          if (block != null) {
                            int mismatch = TestBlock.firstMismatch(block, key, BLOCK_SIZE);
                            block.release();
                            if (mismatch >= 0) {
                              failures.add(key + " differs at byte " + mismatch);
                            }
                          }
                        } else if (op < 9) {
                          put(cache, key, BlockCategory.DATA);
                        } else {
                          cache.evictBlock(key);
                        }
                      }
                    } catch (Throwable e) {
                      failures.add(e.toString());
                    }
                  }));
    }
    start.countDown();
    for (Thread worker : workers) {
      assertTrue(worker.join(Duration.ofSeconds(60)), "worker did not finish");
    }
    assertTrue(failures.isEmpty(), failures.toString());
    assertTrue(cache.stats().snapshot().hitCount() > 0, "no hits");
    cache.shutdown();
    assertEquals(0, cache.blockCount());
  }
}
