package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.Cacheable;
import java.util.Objects;

/**
 * What both tiered caches share: the two tiers they own, eviction from both, summed sizes, the
 * request statistics counted once per lookup, the per-tier figures and shutdown (L1 first, whose
 * eviction may still offer blocks to the L2). Subclasses decide where blocks go, where lookups go,
 * and how blocks held by both tiers are counted. Holds no block and no lock itself.
 */
public abstract sealed class TwoTierBlockCache implements BlockCache
    permits CombinedBlockCache, InclusiveCombinedBlockCache {

  private final BlockCache l1;
  private final BlockCache l2;
  private final LookupCounter lookups = new LookupCounter();

  TwoTierBlockCache(BlockCache l1, BlockCache l2) {
    this.l1 = Objects.requireNonNull(l1, "l1");
    this.l2 = Objects.requireNonNull(l2, "l2");
    if (l1 == l2) {
      throw new IllegalArgumentException("the L1 and L2 of a tiered cache must be two caches");
    }
  }

  /** The first tier. */
  public BlockCache l1() {
    return l1;
  }

  /** The second tier. */
  public BlockCache l2() {
    return l2;
  }

  /** Counts one lookup's outcome in this cache's own statistics and returns the block. */
  final Cacheable counted(
      BlockCacheKey key,
      Cacheable block,
      boolean caching,
      boolean repeat,
      boolean updateCacheMetrics) {
    return lookups.count(key, block, caching, repeat, updateCacheMetrics);
  }

  @Override
  public boolean containsBlock(BlockCacheKey key) {
    return l1.containsBlock(key) || l2.containsBlock(key);
  }

  @Override
  public boolean evictBlock(BlockCacheKey key) {
    boolean evictedFromL1 = l1.evictBlock(key);
    return l2.evictBlock(key) || evictedFromL1;
  }

  @Override
  public long size() {
    return l1.size() + l2.size();
  }

  @Override
  public long freeSize() {
    return l1.freeSize() + l2.freeSize();
  }

  /** Each request counted once; evictions and failed insertions are in {@link #tierStats()}. */
  @Override
  public CacheStats stats() {
    return lookups.stats();
  }

  /** The combined and per-tier figures now. */
  public TieredStatsSnapshot tierStats() {
    return TieredStatsSnapshot.of(this, lookups.stats(), l1, l2);
  }

  @Override
  public void shutdown() {
    try {
      l1.shutdown();
    } finally {
      l2.shutdown();
    }
  }
}
