package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An LRU cache with a victim cache: evictions offered to it, misses served from it. */
class LruBlockCacheVictimTest {

  private static final int BLOCK_SIZE = 4096;
  private static final long COST =
      BLOCK_SIZE + TestBlock.OBJECT_OVERHEAD + LruBlockCache.ENTRY_OVERHEAD;

  private final String file = "victim-" + System.nanoTime();
  private final LruBlockCache victim =
      new LruBlockCache(LruBlockCacheConfig.withCapacity(200 * COST), Runnable::run);
  private final LruBlockCache cache =
      new LruBlockCache(LruBlockCacheConfig.withCapacity(100 * COST), Runnable::run, victim);

  @AfterEach
  void shutDown() {
    cache.shutdown();
    victim.shutdown();
  }

  private BlockCacheKey key(long offset) {
    return new BlockCacheKey(file, offset);
  }

  private static void putHeap(BlockCache cache, BlockCacheKey key, boolean inMemory) {
    TestBlock block = TestBlock.onHeap(key, BLOCK_SIZE, BlockCategory.DATA);
    cache.cacheBlock(key, block, inMemory);
    block.release();
  }

  @Test
  void blocksEvictedForSpaceMoveToTheVictimWithTheirPriority() {
    for (int i = 0; i < 30; i++) {
      putHeap(cache, key(i), true);
    }
    for (int i = 30; i < 100; i++) {
      putHeap(cache, key(i), false);
    }

    long evicted = cache.stats().snapshot().evictedBlockCount();
    assertTrue(evicted > 0);
    assertEquals(evicted, victim.blockCount());
    int inMemoryMoved = 0;
    for (int i = 0; i < 100; i++) {
      assertNotEquals(cache.containsBlock(key(i)), victim.containsBlock(key(i)), "block " + i);
      if (victim.containsBlock(key(i))) {
        BlockPriority expected = i < 30 ? BlockPriority.MEMORY : BlockPriority.SINGLE;
        assertEquals(expected, victim.priority(key(i)), "block " + i);
        inMemoryMoved += i < 30 ? 1 : 0;
      }
    }
    assertTrue(inMemoryMoved > 0 && inMemoryMoved < evicted, "both groups were evicted");
    Cacheable moved = victim.getBlockRetained(key(30), true, false, true);
    assertEquals(1 + 1, moved.refCnt(), "only the victim's and the caller's references remain");
    moved.release();
  }

  @Test
  void explicitRemovalsAreNotOffered() {
    for (int i = 0; i < 3; i++) {
      putHeap(cache, key(i), false);
    }
    assertTrue(cache.evictBlock(key(0)));
    assertEquals(2, cache.evictBlocksByHfileName(file));
    putHeap(cache, key(3), false);
    cache.shutdown();

    assertEquals(0, victim.blockCount());
    assertEquals(0, cache.stats().snapshot().evictedBlockCount());
  }

  @Test
  void aMissIsServedByTheVictimAndCachedAgainWhenTheRequestIsCaching() {
    putHeap(victim, key(0), true);

    Cacheable notCaching = cache.getBlockRetained(key(0), false, false, true);
    assertEquals(-1, TestBlock.firstMismatch(notCaching, key(0), BLOCK_SIZE));
    notCaching.release();
    assertFalse(cache.containsBlock(key(0)));

    Cacheable caching = cache.getBlockRetained(key(0), true, false, true);
    assertTrue(cache.containsBlock(key(0)));
    assertEquals(BlockPriority.SINGLE, cache.priority(key(0)));
    Cacheable fromCache = cache.getBlockRetained(key(0), true, false, true);
    assertSame(caching, fromCache, "the heap block is shared, not copied");
    caching.release();
    fromCache.release();

    CacheStats.Snapshot own = cache.stats().snapshot();
    assertEquals(2, own.missCount());
    assertEquals(1, own.missCachingCount());
    assertEquals(1, own.hitCount());
    CacheStats.Snapshot victims = victim.stats().snapshot();
    assertEquals(2, victims.hitCount());
    assertEquals(1, victims.hitCachingCount());
    assertEquals(0, victims.missCount());
  }

  @Test
  void repeatLookupsAndUncountedLookupsLeaveTheVictimsStatistics() {
    assertNull(cache.getBlockRetained(key(0), true, false, true));
    assertNull(cache.getBlockRetained(key(0), true, true, true));
    assertNull(cache.getBlockRetained(key(0), true, false, false));

    assertEquals(1, cache.stats().snapshot().missCount());
    assertEquals(1, victim.stats().snapshot().missCount(), "the repeat did not reach the victim");
  }

  @Test
  void aVictimHitAfterShutdownIsReturnedButNotCachedAgain() {
    putHeap(victim, key(0), false);
    cache.shutdown();

    Cacheable block = cache.getBlockRetained(key(0), true, false, true);
    assertEquals(-1, TestBlock.firstMismatch(block, key(0), BLOCK_SIZE));
    block.release();
    assertEquals(0, cache.blockCount());
    assertEquals(0, cache.size());
  }

  @Test
  void shutdownWaitsForARunningEvictionSoTheVictimCanBeShutDownAfter() throws Exception {
    CountDownLatch offered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    SlowVictim slow = new SlowVictim(victim, offered, proceed);
    ExecutorService evictor = Executors.newSingleThreadExecutor();
    LruBlockCache evicting =
        new LruBlockCache(LruBlockCacheConfig.withCapacity(100 * COST), evictor, slow);
    try {
      for (int i = 0; i < 100; i++) {
        putHeap(evicting, key(i), false);
      }
      assertTrue(offered.await(10, TimeUnit.SECONDS), "the eviction offered a block");
      Thread shutdown = Thread.ofPlatform().name("victim-test-shutdown").start(evicting::shutdown);
      assertFalse(shutdown.join(Duration.ofMillis(200)), "shutdown waits for the eviction");

      proceed.countDown();
      assertTrue(shutdown.join(Duration.ofSeconds(10)));
      assertEquals(0, evicting.blockCount());
      assertEquals(evicting.stats().snapshot().evictedBlockCount(), victim.blockCount());
    } finally {
      proceed.countDown();
      evicting.shutdown();
      evictor.shutdown();
    }
  }

  /** A victim whose offers wait until the test lets them through. */
  private record SlowVictim(BlockCache delegate, CountDownLatch offered, CountDownLatch proceed)
      implements BlockCache {

    @Override
    public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
      offered.countDown();
      try {
        if (!proceed.await(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never let the offer through");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      delegate.cacheBlock(key, block, inMemory);
    }

    @Override
    public Cacheable getBlockRetained(
        BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
      return delegate.getBlockRetained(key, caching, repeat, updateCacheMetrics);
    }

    @Override
    public boolean containsBlock(BlockCacheKey key) {
      return delegate.containsBlock(key);
    }

    @Override
    public boolean evictBlock(BlockCacheKey key) {
      return delegate.evictBlock(key);
    }

    @Override
    public int evictBlocksByHfileName(String fileName) {
      return delegate.evictBlocksByHfileName(fileName);
    }

    @Override
    public long size() {
      return delegate.size();
    }

    @Override
    public long freeSize() {
      return delegate.freeSize();
    }

    @Override
    public long blockCount() {
      return delegate.blockCount();
    }

    @Override
    public CacheStats stats() {
      return delegate.stats();
    }

    @Override
    public void shutdown() {
      delegate.shutdown();
    }
  }
}
