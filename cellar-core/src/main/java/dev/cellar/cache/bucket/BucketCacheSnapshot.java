package dev.cellar.cache.bucket;

import dev.cellar.cache.CacheStats;
import java.util.List;

/**
 * A bucket cache's figures at one moment, under HBase's names where it has them.
 *
 * @param ioEngine the engine as configured
 * @param enabled false once engine errors disabled the cache
 * @param stats hits, misses, evictions and failed insertions
 * @param capacity engine bytes in whole buckets
 * @param usedSize bytes of the slots in use (HBase's getCurrentSize)
 * @param realCacheSize bytes the cached blocks actually occupy (HBase's size())
 * @param freeSize capacity minus used slot bytes
 * @param blockCount entries written to the engine
 * @param queuedCount blocks still in the RAM cache, waiting for a writer
 * @param ioHitCount reads served by engine I/O (copying engines)
 * @param ioTimePerHitMicros mean engine read time per such hit
 * @param checksumFailures stored blocks evicted because their bytes did not verify
 * @param ioErrors engine reads and writes that failed
 * @param sizeClasses usage and fragmentation per bucket size
 */
public record BucketCacheSnapshot(
    String ioEngine,
    boolean enabled,
    CacheStats.Snapshot stats,
    long capacity,
    long usedSize,
    long realCacheSize,
    long freeSize,
    long blockCount,
    long queuedCount,
    long ioHitCount,
    double ioTimePerHitMicros,
    long checksumFailures,
    long ioErrors,
    List<SizeClassStats> sizeClasses) {

  public BucketCacheSnapshot {
    sizeClasses = List.copyOf(sizeClasses);
  }

  /** Bytes lost inside slots to blocks smaller than their slot, over all size classes. */
  public long fragmentationBytes() {
    long sum = 0;
    for (SizeClassStats sizeClass : sizeClasses) {
      sum += sizeClass.fragmentationBytes();
    }
    return sum;
  }
}
