package dev.cellar.cache;

import dev.cellar.metrics.ThreadCounters;
import java.util.EnumMap;
import java.util.Map;

/**
 * A cache's counters since creation, named as HBase's CacheStats names them: hits and misses (all
 * requests, and those that wanted the block cached), eviction runs, blocks evicted by those runs,
 * failed insertions, hits and misses per block category, and (Cellar's) missed blocks the cache
 * left out ({@link MissDoorkeeper}).
 *
 * <p>Concurrency: the counters are {@link ThreadCounters}, so recording costs no lock and no atomic
 * instruction, each thread counting in a row of its own; a {@link #snapshot()} reads them one by
 * one, so under concurrent updates its fields may come from slightly different instants. The totals
 * are sums of the per-category counts, and the caching counts the totals less the (rare) requests
 * that did not want caching, so a hit, on every block a Get touches, costs one add.
 */
public final class CacheStats {

  private static final BlockCategory[] CATEGORIES = BlockCategory.values();

  /** Counter numbers: hits per category, misses per category, then the others. */
  private static final int HITS = 0;

  private static final int MISSES = HITS + CATEGORIES.length;

  /** Totals are sums of the categories: a hit costs one add when it wanted caching, as most do. */
  private static final int HITS_NOT_CACHING = MISSES + CATEGORIES.length;

  private static final int MISSES_NOT_CACHING = HITS_NOT_CACHING + 1;
  private static final int MISSES_UNCATEGORIZED = MISSES_NOT_CACHING + 1;
  private static final int EVICTIONS = MISSES_UNCATEGORIZED + 1;
  private static final int EVICTED_BLOCKS = EVICTIONS + 1;
  private static final int FAILED_INSERTIONS = EVICTED_BLOCKS + 1;
  private static final int LEFT_OUT = FAILED_INSERTIONS + 1;
  private static final int COUNTERS = LEFT_OUT + 1;

  private final ThreadCounters counters = new ThreadCounters(COUNTERS);

  /** A hit on a block of {@code category}; {@code caching} if the request wanted it cached. */
  public void hit(boolean caching, BlockCategory category) {
    counters.increment(HITS + category.ordinal());
    if (!caching) {
      counters.increment(HITS_NOT_CACHING);
    }
  }

  /** A miss; {@code category} is null when the requester did not say what it expected. */
  public void miss(boolean caching, BlockCategory category) {
    counters.increment(category != null ? MISSES + category.ordinal() : MISSES_UNCATEGORIZED);
    if (!caching) {
      counters.increment(MISSES_NOT_CACHING);
    }
  }

  /** One run of the eviction process. */
  public void evictionRun() {
    counters.increment(EVICTIONS);
  }

  /** One block removed by the eviction process (not by an explicit evict or a file's removal). */
  public void evicted() {
    counters.increment(EVICTED_BLOCKS);
  }

  /** One block the cache refused to store. */
  public void failedInsertion() {
    counters.increment(FAILED_INSERTIONS);
  }

  /** One missed block the cache chose not to take in (served to its reader only). */
  public void leftOut() {
    counters.increment(LEFT_OUT);
  }

  public Snapshot snapshot() {
    Map<BlockCategory, Long> hits = sums(HITS);
    Map<BlockCategory, Long> misses = sums(MISSES);
    long hitCount = total(hits);
    long missCount = total(misses) + counters.sum(MISSES_UNCATEGORIZED);
    return new Snapshot(
        hitCount,
        Math.max(0, hitCount - counters.sum(HITS_NOT_CACHING)),
        missCount,
        Math.max(0, missCount - counters.sum(MISSES_NOT_CACHING)),
        counters.sum(EVICTIONS),
        counters.sum(EVICTED_BLOCKS),
        counters.sum(FAILED_INSERTIONS),
        counters.sum(LEFT_OUT),
        hits,
        misses);
  }

  private static long total(Map<BlockCategory, Long> counts) {
    long total = 0;
    for (long count : counts.values()) {
      total += count;
    }
    return total;
  }

  /** The counts per category of the counters from {@code first}, one per category. */
  private Map<BlockCategory, Long> sums(int first) {
    EnumMap<BlockCategory, Long> sums = new EnumMap<>(BlockCategory.class);
    for (BlockCategory category : CATEGORIES) {
      sums.put(category, counters.sum(first + category.ordinal()));
    }
    return sums;
  }

  /**
   * The counters at one moment. {@link #hitRatio()} is HBase's blockCacheCountHitPercent over 100;
   * {@link #hitCachingRatio()} its blockCacheExpressHitPercent over 100.
   */
  public record Snapshot(
      long hitCount,
      long hitCachingCount,
      long missCount,
      long missCachingCount,
      long evictionCount,
      long evictedBlockCount,
      long failedInsertions,
      long leftOutCount,
      Map<BlockCategory, Long> hitsByCategory,
      Map<BlockCategory, Long> missesByCategory) {

    public Snapshot {
      hitsByCategory = Map.copyOf(hitsByCategory);
      missesByCategory = Map.copyOf(missesByCategory);
    }

    public long requestCount() {
      return hitCount + missCount;
    }

    public long requestCachingCount() {
      return hitCachingCount + missCachingCount;
    }

    /** Hits over requests, 0 with no requests. */
    public double hitRatio() {
      return ratio(hitCount, requestCount());
    }

    /** Hits over requests that wanted caching, 0 with no such requests. */
    public double hitCachingRatio() {
      return ratio(hitCachingCount, requestCachingCount());
    }

    public long hits(BlockCategory category) {
      return hitsByCategory.get(category);
    }

    public long misses(BlockCategory category) {
      return missesByCategory.get(category);
    }

    /**
     * Lookups of data blocks: the data hits, and the misses of lookups that expected data or did
     * not say what they expected (a reader reading on into the next block does not; only data
     * blocks are read that way).
     */
    public long dataLookups() {
      long attributed = 0;
      for (long misses : missesByCategory.values()) {
        attributed += misses;
      }
      return hits(BlockCategory.DATA) + misses(BlockCategory.DATA) + missCount - attributed;
    }

    private static double ratio(long part, long whole) {
      return whole == 0 ? 0 : (double) part / whole;
    }
  }
}
