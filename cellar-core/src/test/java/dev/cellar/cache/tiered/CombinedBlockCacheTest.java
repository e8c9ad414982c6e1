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
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import org.junit.jupiter.api.Test;

/**
 * The block cache contract and the exclusive tiering against two LRU tiers. Only {@link #l2}
 * changes when the L2 becomes a BucketCache.
 */
class CombinedBlockCacheTest extends BlockCacheContractTest {

  /** A capacity of about ten test blocks. */
  private static final long TEN_BLOCKS = 10L * (BLOCK_SIZE + 1024);

  private final String file = "combined-" + System.nanoTime();

  @Override
  protected BlockCache newCache(long capacity) {
    return new CombinedBlockCache(lru(capacity), l2(capacity));
  }

  private static LruBlockCache lru(long capacity) {
    return new LruBlockCache(LruBlockCacheConfig.withCapacity(capacity), Runnable::run);
  }

  private static BlockCache l2(long capacity) {
    return lru(capacity);
  }

  private CombinedBlockCache combined() {
    return (CombinedBlockCache) cache(ROOMY);
  }

  private BlockCacheKey at(long offset) {
    return new BlockCacheKey(file, offset);
  }

  private BlockCacheKey at(long offset, BlockCategory expected) {
    return new BlockCacheKey(file, offset, expected);
  }

  private static Cacheable get(BlockCache cache, BlockCacheKey key, boolean caching) {
    return cache.getBlockRetained(key, caching, false, true);
  }

  @Test
  void indexBloomAndMetaBlocksGoToL1AndDataBlocksToL2() {
    CombinedBlockCache cache = combined();
    BlockCategory[] categories = BlockCategory.values();
    for (int i = 0; i < categories.length; i++) {
      put(cache, at(i), categories[i]);
    }

    for (int i = 0; i < categories.length; i++) {
      boolean data = categories[i] == BlockCategory.DATA;
      assertEquals(!data, cache.l1().containsBlock(at(i)), categories[i] + " in L1");
      assertEquals(data, cache.l2().containsBlock(at(i)), categories[i] + " in L2");
      assertTrue(cache.containsBlock(at(i)));
    }
    assertEquals(categories.length - 1, cache.l1().blockCount());
    assertEquals(1, cache.l2().blockCount());
    assertEquals(categories.length, cache.blockCount());
    assertEquals(cache.l1().size() + cache.l2().size(), cache.size());
    assertEquals(cache.l1().freeSize() + cache.l2().freeSize(), cache.freeSize());
  }

  @Test
  void anExpectedCategoryAsksOnlyItsTier() {
    CombinedBlockCache cache = combined();
    put(cache, at(0), BlockCategory.DATA);

    Cacheable block = get(cache, at(0, BlockCategory.DATA), true);
    assertBytes(block, at(0));
    block.release();
    assertNull(get(cache, at(0, BlockCategory.INDEX), true), "an INDEX lookup asks the L1 only");

    TieredStatsSnapshot stats = cache.tierStats();
    assertEquals(1, stats.combined().hitCount());
    assertEquals(1, stats.combined().missCount());
    assertEquals(1, stats.combined().misses(BlockCategory.INDEX));
    assertEquals(1, stats.l2().hitCount());
    assertEquals(0, stats.l2().missCount());
    assertEquals(0, stats.l1().hitCount());
    assertEquals(1, stats.l1().missCount());
  }

  @Test
  void withoutAnExpectedCategoryTheL1IsCheckedFirstAndOneTierCountsEachRequest() {
    CombinedBlockCache cache = combined();
    put(cache, at(0), BlockCategory.INDEX);
    put(cache, at(1), BlockCategory.DATA);

    get(cache, at(0), true).release();
    get(cache, at(1), true).release();
    assertNull(get(cache, at(2), true));
    assertNull(cache.getBlockRetained(at(2), true, true, true), "a repeat lookup");

    TieredStatsSnapshot stats = cache.tierStats();
    assertEquals(2, stats.combined().hitCount());
    assertEquals(1, stats.combined().missCount());
    assertEquals(1, stats.l1().hitCount());
    assertEquals(0, stats.l1().missCount(), "a key the L1 does not hold is not an L1 miss");
    assertEquals(1, stats.l2().hitCount());
    assertEquals(1, stats.l2().missCount());
  }

  @Test
  void tierStatsGiveCombinedTotalsAndEachTiersFigures() {
    CombinedBlockCache cache = combined();
    put(cache, at(0), BlockCategory.BLOOM);
    put(cache, at(1), BlockCategory.DATA);

    get(cache, at(0), true).release();
    get(cache, at(1), false).release();
    assertNull(get(cache, at(2, BlockCategory.DATA), true));
    assertNull(get(cache, at(3), false));

    TieredStatsSnapshot stats = cache.tierStats();
    CacheStats.Snapshot combined = stats.combined();
    assertEquals(2, combined.hitCount());
    assertEquals(1, combined.hitCachingCount());
    assertEquals(2, combined.missCount());
    assertEquals(1, combined.missCachingCount());
    assertEquals(1, combined.hits(BlockCategory.BLOOM));
    assertEquals(1, combined.hits(BlockCategory.DATA));
    assertEquals(1, combined.misses(BlockCategory.DATA));
    assertEquals(50.0, stats.countHitPercent(), 1e-9);
    assertEquals(50.0, stats.expressHitPercent(), 1e-9);
    assertEquals(combined, cache.stats().snapshot(), "no tier evicted or refused anything");
    assertEquals(cache.size(), stats.size());
    assertEquals(cache.freeSize(), stats.freeSize());
    assertEquals(2, stats.blockCount());

    TieredStatsSnapshot.Tier l1 = stats.l1();
    assertEquals(1, l1.hitCount());
    assertEquals(1, l1.hitCachingCount());
    assertEquals(0, l1.missCount());
    assertEquals(1.0, l1.hitRatio(), 1e-9);
    assertEquals(0.0, l1.missRatio(), 1e-9);
    assertEquals(1, l1.blockCount());
    assertEquals(cache.l1().size(), l1.size());
    assertEquals(cache.l1().freeSize(), l1.freeSize());

    TieredStatsSnapshot.Tier l2 = stats.l2();
    assertEquals(1, l2.hitCount());
    assertEquals(0, l2.hitCachingCount());
    assertEquals(2, l2.missCount());
    assertEquals(1, l2.missCachingCount());
    assertEquals(1.0 / 3, l2.hitRatio(), 1e-9);
    assertEquals(2.0 / 3, l2.missRatio(), 1e-9);
    assertEquals(0.0, l2.hitCachingRatio(), 1e-9);
    assertEquals(1.0, l2.missCachingRatio(), 1e-9);
    assertEquals(1, l2.blockCount());
    assertEquals(cache.l2().size(), l2.size());
  }

  @Test
  void evictionsAndFailedInsertionsAreTheTiersSums() {
    LruBlockCacheConfig refusesTestBlocks =
        new LruBlockCacheConfig(ROOMY, BLOCK_SIZE, 0.25, 0.5, 0.25, 0.99, 0.95, 1.2, false, true);
    CombinedBlockCache cache =
        new CombinedBlockCache(new LruBlockCache(refusesTestBlocks, Runnable::run), l2(TEN_BLOCKS));
    try {
      put(cache, at(0), BlockCategory.INDEX);
      for (int i = 1; i <= 20; i++) {
        put(cache, at(i), BlockCategory.DATA);
      }

      TieredStatsSnapshot stats = cache.tierStats();
      assertEquals(1, stats.l1().stats().failedInsertions());
      assertTrue(stats.l2().evictionCount() > 0, "the L2 evicted");
      assertEquals(1, stats.combined().failedInsertions());
      assertEquals(stats.l2().evictionCount(), stats.combined().evictedBlockCount());
      assertEquals(stats.l2().stats().evictionCount(), stats.combined().evictionCount());
      assertEquals(0, cache.stats().snapshot().evictedBlockCount(), "stats() counts requests only");
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void evictionByKeyAndByFileReachesBothTiers() {
    CombinedBlockCache cache = combined();
    put(cache, at(0), BlockCategory.INDEX);
    put(cache, at(1), BlockCategory.DATA);
    put(cache, at(2), BlockCategory.DATA);
    put(cache, at(3), BlockCategory.BLOOM);
    BlockCacheKey other = new BlockCacheKey(file + "-other", 0);
    put(cache, other, BlockCategory.DATA);

    assertTrue(cache.evictBlock(at(0)));
    assertTrue(cache.evictBlock(at(1)));
    assertFalse(cache.evictBlock(at(1)));
    assertEquals(2, cache.evictBlocksByHfileName(file), "one block from each tier");
    assertEquals(0, cache.l1().blockCount());
    assertEquals(1, cache.l2().blockCount());
    assertTrue(cache.containsBlock(other));
  }

  @Test
  void shutdownShutsBothTiersDown() {
    CombinedBlockCache cache = combined();
    put(cache, at(0), BlockCategory.META);
    put(cache, at(1), BlockCategory.DATA);

    cache.shutdown();
    assertEquals(0, cache.l1().blockCount());
    assertEquals(0, cache.l2().blockCount());
    assertThrows(IllegalStateException.class, () -> put(cache, at(2), BlockCategory.INDEX));
    assertThrows(IllegalStateException.class, () -> put(cache, at(2), BlockCategory.DATA));
  }

  @Test
  void theTiersMustBeTwoCaches() {
    BlockCache tier = lru(ROOMY);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new CombinedBlockCache(tier, tier));
    assertTrue(e.getMessage().contains("two caches"), e.getMessage());
    tier.shutdown();
  }
}
