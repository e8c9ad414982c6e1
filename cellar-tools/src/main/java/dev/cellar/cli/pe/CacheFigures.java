package dev.cellar.cli.pe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.tiered.TieredStatsSnapshot;
import dev.cellar.cache.tiered.TwoTierBlockCache;
import java.util.ArrayList;
import java.util.List;

/**
 * Block cache hits and misses per tier at one moment, or between two moments: L1 and L2 of a {@link
 * TwoTierBlockCache}, combined or inclusive (what each tier counted of the lookups that reached
 * it), and the combined figures, or the single cache's. Empty when the configuration has no block
 * cache.
 */
public record CacheFigures(List<Tier> tiers) {

  /**
   * One tier's lookups and what it holds; {@code leftOut} of the misses were served without being
   * cached.
   */
  public record Tier(String name, long hits, long misses, long leftOut, long blocks, long bytes) {

    public long requests() {
      return hits + misses;
    }

    /** Hits over lookups; NaN with no lookups. */
    public double hitRatio() {
      return requests() == 0 ? Double.NaN : (double) hits / requests();
    }
  }

  public CacheFigures {
    tiers = List.copyOf(tiers);
  }

  /** The counters of {@code cache} now; {@code cache} may be null (no block cache). */
  public static CacheFigures of(BlockCache cache) {
    List<Tier> tiers = new ArrayList<>();
    if (cache instanceof TwoTierBlockCache tiered) {
      TieredStatsSnapshot snapshot = tiered.tierStats();
      tiers.add(
          tier("L1", snapshot.l1().stats(), snapshot.l1().blockCount(), snapshot.l1().size()));
      tiers.add(
          tier("L2", snapshot.l2().stats(), snapshot.l2().blockCount(), snapshot.l2().size()));
      tiers.add(tier("combined", snapshot.combined(), snapshot.blockCount(), snapshot.size()));
    } else if (cache != null) {
      tiers.add(
          tier(
              cache.getClass().getSimpleName(),
              cache.stats().snapshot(),
              cache.blockCount(),
              cache.size()));
    }
    return new CacheFigures(tiers);
  }

  private static Tier tier(String name, CacheStats.Snapshot stats, long blocks, long bytes) {
    return new Tier(name, stats.hitCount(), stats.missCount(), stats.leftOutCount(), blocks, bytes);
  }

  /** The lookups since {@code earlier}, with this snapshot's occupancy. */
  public CacheFigures since(CacheFigures earlier) {
    List<Tier> delta = new ArrayList<>();
    for (int i = 0; i < tiers.size(); i++) {
      Tier now = tiers.get(i);
      Tier then = earlier.tiers.get(i);
      delta.add(
          new Tier(
              now.name,
              now.hits - then.hits,
              now.misses - then.misses,
              now.leftOut - then.leftOut,
              now.blocks,
              now.bytes));
    }
    return new CacheFigures(delta);
  }
}
