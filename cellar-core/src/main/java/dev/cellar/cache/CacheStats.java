package dev.cellar.cache;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A cache's counters since creation, named as HBase's CacheStats names them: hits and misses (all
 * requests, and those that wanted the block cached), eviction runs, blocks evicted by those runs,
 * failed insertions, and hits and misses per block category.
 *
 * <p>Concurrency: every counter is a {@link LongAdder}, so recording costs no lock and little
 * contention; a {@link #snapshot()} reads them one by one, so under concurrent updates its fields
 * may come from slightly different instants. The totals are sums of the per-category counts, and
 * the caching counts the totals less the (rare) requests that did not want caching, so a hit, on
 * every block a Get touches, costs one increment.
 */
public final class CacheStats {

  private static final BlockCategory[] CATEGORIES = BlockCategory.values();

  /** Totals are sums of these: a hit costs one increment when it wanted caching, as most do. */
  private final LongAdder hitsNotCaching = new LongAdder();
  private final LongAdder missesNotCaching = new LongAdder();
  private final LongAdder missesUncategorized = new LongAdder();
  private final LongAdder evictionCount = new LongAdder();
  private final LongAdder evictedBlockCount = new LongAdder();
  private final LongAdder failedInsertions = new LongAdder();
  private final LongAdder[] hitsByCategory = adders();
  private final LongAdder[] missesByCategory = adders();

  private static LongAdder[] adders() {
    LongAdder[] adders = new LongAdder[CATEGORIES.length];
    for (int i = 0; i < adders.length; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }

  /** A hit on a block of {@code category}; {@code caching} if the request wanted it cached. */
  public void hit(boolean caching, BlockCategory category) {
    hitsByCategory[category.ordinal()].increment();
    if (!caching) {
      hitsNotCaching.increment();
    }
  }

  /** A miss; {@code category} is null when the requester did not say what it expected. */
  public void miss(boolean caching, BlockCategory category) {
    if (category != null) {
      missesByCategory[category.ordinal()].increment();
    } else {
      missesUncategorized.increment();
    }
    if (!caching) {
      missesNotCaching.increment();
    }
  }

  /** One run of the eviction process. */
  public void evictionRun() {
    evictionCount.increment();
  }

  /** One block removed by the eviction process (not by an explicit evict or a file's removal). */
  public void evicted() {
    evictedBlockCount.increment();
  }

  /** One block the cache refused to store. */
  public void failedInsertion() {
    failedInsertions.increment();
  }

  public Snapshot snapshot() {
    Map<BlockCategory, Long> hits = sums(hitsByCategory);
    Map<BlockCategory, Long> misses = sums(missesByCategory);
    long hitCount = total(hits);
    long missCount = total(misses) + missesUncategorized.sum();
    return new Snapshot(hitCount, Math.max(0, hitCount - hitsNotCaching.sum()), missCount,
        Math.max(0, missCount - missesNotCaching.sum()), evictionCount.sum(),
        evictedBlockCount.sum(), failedInsertions.sum(), hits, misses);
  }

  private static long total(Map<BlockCategory, Long> counts) {
    long total = 0;
    for (long count : counts.values()) {
      total += count;
    }
    return total;
  }

  private static Map<BlockCategory, Long> sums(LongAdder[] adders) {
    EnumMap<BlockCategory, Long> sums = new EnumMap<>(BlockCategory.class);
    for (BlockCategory category : CATEGORIES) {
      sums.put(category, adders[category.ordinal()].sum());
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
