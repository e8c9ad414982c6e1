package dev.cellar.cache.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheContractTest;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import org.junit.jupiter.api.Test;

/**
 * The block cache contract and the inclusive tiering against an LRU L1 of half the capacity over an
 * LRU L2. Only {@link #l2} changes when the L2 becomes a BucketCache.
 */
class InclusiveCombinedBlockCacheTest extends BlockCacheContractTest {

  /** A capacity of about ten test blocks. */
  private static final long TEN_BLOCKS = 10L * (BLOCK_SIZE + 1024);

  private final String file = "inclusive-" + System.nanoTime();

  @Override
  protected BlockCache newCache(long capacity) {
    return inclusive(capacity / 2, capacity);
  }

  private static InclusiveCombinedBlockCache inclusive(long l1Capacity, long l2Capacity) {
    BlockCache l2 = l2(l2Capacity);
    LruBlockCache l1 =
        new LruBlockCache(LruBlockCacheConfig.withCapacity(l1Capacity), Runnable::run, l2);
    return new InclusiveCombinedBlockCache(l1, l2);
  }

  private static BlockCache l2(long capacity) {
    return new LruBlockCache(LruBlockCacheConfig.withCapacity(capacity), Runnable::run);
  }

  private InclusiveCombinedBlockCache inclusive() {
    return (InclusiveCombinedBlockCache) cache(ROOMY);
  }

  private BlockCacheKey at(long offset) {
    return new BlockCacheKey(file, offset);
  }

  @Test
  void everyBlockIsCachedInBothTiers() {
    InclusiveCombinedBlockCache cache = inclusive();
    put(cache, at(0), BlockCategory.INDEX);
    put(cache, at(1), BlockCategory.DATA);

    for (int i = 0; i < 2; i++) {
      assertTrue(cache.l1().containsBlock(at(i)));
      assertTrue(cache.l2().containsBlock(at(i)));
    }
    assertEquals(2, cache.blockCount(), "a block in both tiers counts once");
    assertEquals(cache.l1().size() + cache.l2().size(), cache.size());
    assertEquals(cache.l1().freeSize() + cache.l2().freeSize(), cache.freeSize());
  }

  @Test
  void blocksTheL1EvictsUnderPressureGoToTheL2() {
    InclusiveCombinedBlockCache cache = inclusive(TEN_BLOCKS, ROOMY);
    try {
      for (int i = 0; i < 5; i++) {
        put(cache, at(i), BlockCategory.DATA);
      }
      assertEquals(5, cache.l2().evictBlocksByHfileName(file), "now only the L1 holds them");
      for (int i = 5; i < 20; i++) {
        put(cache, at(i), BlockCategory.DATA);
      }

      assertFalse(cache.l1().containsBlock(at(0)), "the oldest block left the L1");
      assertTrue(cache.l2().containsBlock(at(0)), "and was offered to the L2");
      long evicted = cache.tierStats().l1().evictionCount();
      assertTrue(evicted > 0);
      for (int i = 0; i < 20; i++) {
        assertTrue(cache.containsBlock(at(i)), "block " + i + " is still cached in a tier");
      }
      Cacheable block = cache.getBlockRetained(at(0), false, false, true);
      assertBytes(block, at(0));
      block.release();
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void anL2HitIsCachedAgainInTheL1OnlyWhenTheRequestIsCaching() {
    InclusiveCombinedBlockCache cache = inclusive();
    put(cache, at(0), BlockCategory.DATA);
    assertTrue(cache.l1().evictBlock(at(0)));

    Cacheable notCaching = cache.getBlockRetained(at(0), false, false, true);
    assertBytes(notCaching, at(0));
    notCaching.release();
    assertFalse(cache.l1().containsBlock(at(0)));

    Cacheable caching = cache.getBlockRetained(at(0), true, false, true);
    assertBytes(caching, at(0));
    caching.release();
    assertTrue(cache.l1().containsBlock(at(0)));

    cache.getBlockRetained(at(0), true, false, true).release();
    TieredStatsSnapshot stats = cache.tierStats();
    assertEquals(3, stats.combined().hitCount());
    assertEquals(0, stats.combined().missCount());
    assertEquals(1, stats.l1().hitCount());
    assertEquals(2, stats.l1().missCount());
    assertEquals(2, stats.l2().hitCount());
    assertEquals(1, stats.l2().hitCachingCount());
    assertEquals(0, stats.l2().missCount());
  }

  @Test
  void aMissIsCountedOnceCombinedAndOnceInEachTier() {
    InclusiveCombinedBlockCache cache = inclusive();
    BlockCacheKey key = new BlockCacheKey(file, 0, BlockCategory.BLOOM);

    assertNull(cache.getBlockRetained(key, true, false, true));
    assertNull(cache.getBlockRetained(key, true, true, true), "a repeat lookup");
    assertNull(cache.getBlockRetained(key, true, false, false), "a lookup outside the metrics");

    TieredStatsSnapshot stats = cache.tierStats();
    assertEquals(1, stats.combined().missCount());
    assertEquals(1, stats.combined().missCachingCount());
    assertEquals(1, stats.combined().misses(BlockCategory.BLOOM));
    assertEquals(1, stats.l1().missCount());
    assertEquals(1, stats.l2().missCount());
    assertEquals(0.0, stats.countHitPercent(), 1e-9);
  }

  @Test
  void evictionByKeyAndByFileReachesBothTiers() {
    InclusiveCombinedBlockCache cache = inclusive();
    for (int i = 0; i < 4; i++) {
      put(cache, at(i), BlockCategory.DATA);
    }
    BlockCacheKey other = new BlockCacheKey(file + "-other", 0);
    put(cache, other, BlockCategory.DATA);
    assertTrue(cache.l1().evictBlock(at(1)));

    assertTrue(cache.evictBlock(at(0)));
    assertFalse(cache.l1().containsBlock(at(0)));
    assertFalse(cache.l2().containsBlock(at(0)));
    assertTrue(cache.evictBlock(at(1)), "a block only the L2 still held");
    assertFalse(cache.evictBlock(at(1)));

    assertEquals(2, cache.evictBlocksByHfileName(file));
    assertEquals(1, cache.l1().blockCount());
    assertEquals(1, cache.l2().blockCount());
    assertTrue(cache.containsBlock(other));
  }

  @Test
  void shutdownShutsBothTiersDown() {
    InclusiveCombinedBlockCache cache = inclusive();
    put(cache, at(0), BlockCategory.DATA);

    cache.shutdown();
    assertEquals(0, cache.l1().blockCount());
    assertEquals(0, cache.l2().blockCount());
    assertThrows(IllegalStateException.class, () -> put(cache.l1(), at(1), BlockCategory.DATA));
    assertThrows(IllegalStateException.class, () -> put(cache.l2(), at(1), BlockCategory.DATA));
  }

  @Test
  void theL1MustHaveTheL2AsItsVictim() {
    BlockCache l2 = l2(ROOMY);
    LruBlockCache withoutVictim =
        new LruBlockCache(LruBlockCacheConfig.withCapacity(ROOMY), Runnable::run);
    LruBlockCache otherVictim =
        new LruBlockCache(LruBlockCacheConfig.withCapacity(ROOMY), Runnable::run, withoutVictim);
    try {
      for (LruBlockCache l1 : new LruBlockCache[] {withoutVictim, otherVictim}) {
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class, () -> new InclusiveCombinedBlockCache(l1, l2));
        assertTrue(e.getMessage().contains("victim cache"), e.getMessage());
      }
    } finally {
      otherVictim.shutdown();
      withoutVictim.shutdown();
      l2.shutdown();
    }
  }
}
