package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.CacheStats;

/**
 * A tiered cache's figures at one moment, as HBase's CombinedCacheStats reports them: the combined
 * totals and each tier's own.
 *
 * <p>{@link #combined()} counts each request once, a hit in either tier being one hit; its eviction
 * runs, evicted blocks and failed insertions are the sums of the tiers', since those happen inside
 * the tiers. Its {@link CacheStats.Snapshot#hitRatio()} and {@link
 * CacheStats.Snapshot#hitCachingRatio()} are HBase's blockCacheCountHitPercent and
 * blockCacheExpressHitPercent over 100 ({@link #countHitPercent()}, {@link #expressHitPercent()}).
 * {@link #size()}, {@link #freeSize()} and {@link #blockCount()} are the tiered cache's own
 * answers. {@link #l1()} and {@link #l2()} are HBase's l1Cache* and l2Cache* figures: what each
 * tier counted of the requests that reached it.
 *
 * <p>The parts are read one after the other, so under concurrent use they may come from slightly
 * different instants.
 */
public record TieredStatsSnapshot(
    CacheStats.Snapshot combined, long size, long freeSize, long blockCount, Tier l1, Tier l2) {

  /** The snapshot of {@code cache}, whose own lookups {@code lookups} counted, over its tiers. */
  static TieredStatsSnapshot of(
      BlockCache cache, CacheStats lookups, BlockCache l1, BlockCache l2) {
    Tier first = Tier.of(l1);
    Tier second = Tier.of(l2);
    CacheStats.Snapshot requests = lookups.snapshot();
    CacheStats.Snapshot combined =
        new CacheStats.Snapshot(
            requests.hitCount(),
            requests.hitCachingCount(),
            requests.missCount(),
            requests.missCachingCount(),
            first.stats().evictionCount() + second.stats().evictionCount(),
            first.stats().evictedBlockCount() + second.stats().evictedBlockCount(),
            first.stats().failedInsertions() + second.stats().failedInsertions(),
            first.stats().leftOutCount() + second.stats().leftOutCount(),
            requests.hitsByCategory(),
            requests.missesByCategory());
    return new TieredStatsSnapshot(
        combined, cache.size(), cache.freeSize(), cache.blockCount(), first, second);
  }

  /** HBase's blockCacheCountHitPercent: hits over requests, times 100. */
  public double countHitPercent() {
    return combined.hitRatio() * 100;
  }

  /** HBase's blockCacheExpressHitPercent: hits over requests that wanted caching, times 100. */
  public double expressHitPercent() {
    return combined.hitCachingRatio() * 100;
  }

  /** One tier's counters and occupancy, under the names of HBase's l1Cache and l2Cache metrics. */
  public record Tier(CacheStats.Snapshot stats, long size, long freeSize, long blockCount) {

    static Tier of(BlockCache cache) {
      return new Tier(cache.stats().snapshot(), cache.size(), cache.freeSize(), cache.blockCount());
    }

    public long hitCount() {
      return stats.hitCount();
    }

    public long hitCachingCount() {
      return stats.hitCachingCount();
    }

    public long missCount() {
      return stats.missCount();
    }

    public long missCachingCount() {
      return stats.missCachingCount();
    }

    /** Blocks the tier's eviction process removed (HBase's l1CacheEvictionCount). */
    public long evictionCount() {
      return stats.evictedBlockCount();
    }

    public double hitRatio() {
      return stats.hitRatio();
    }

    public double hitCachingRatio() {
      return stats.hitCachingRatio();
    }

    /** Misses over requests, 0 with no requests. */
    public double missRatio() {
      return stats.requestCount() == 0 ? 0 : (double) stats.missCount() / stats.requestCount();
    }

    /** Misses over requests that wanted caching, 0 with no such requests. */
    public double missCachingRatio() {
      long requests = stats.requestCachingCount();
      return requests == 0 ? 0 : (double) stats.missCachingCount() / requests;
    }
  }
}
