package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.Cacheable;

/**
 * A tiered cache's own request statistics: each lookup counted once, as a hit if any tier returned
 * the block, whatever the tiers counted themselves. Thread-safe as {@link CacheStats}.
 */
final class LookupCounter {

  private final CacheStats stats = new CacheStats();

  /**
   * Counts the lookup of {@code key} that found {@code block} (null for a miss) under the arguments
   * of {@link dev.cellar.cache.BlockCache#getBlockRetained}, and returns the block.
   */
  Cacheable count(
      BlockCacheKey key,
      Cacheable block,
      boolean caching,
      boolean repeat,
      boolean updateCacheMetrics) {
    if (!updateCacheMetrics) {
      return block;
    }
    if (block != null) {
      stats.hit(caching, block.category());
    } else if (!repeat) {
      stats.miss(caching, key.expectedCategory());
    }
    return block;
  }

  CacheStats stats() {
    return stats;
  }
}
