package dev.cellar.observe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.bucket.BucketCacheSnapshot;
import dev.cellar.cache.bucket.SizeClassStats;
import dev.cellar.cache.tiered.TwoTierBlockCache;
import java.util.ArrayList;
import java.util.List;

/**
 * Cellar's own {@code Hadoop:service=HBase,name=RegionServer,sub=CellarBlockCache}: what HBase
 * shows only on its web UI's Block Cache tabs. Per tier and block category, hits and misses ({@code
 * l1CacheDataHitCount}, {@code l2CacheLeafIndexMissCount}, ...); the bucket cache's engine ({@code
 * bucketCacheIoEngine}, {@code bucketCacheCapacity}, {@code bucketCacheUsedSize}, {@code
 * bucketCacheFragmentationBytes}, ...); and per bucket size class, named by its slot size ({@code
 * bucketSizeClass5120TotalSlots}, {@code ...UsedSlots}, {@code ...FreeSlots}, {@code
 * ...BucketCount}, {@code ...FragmentationBytes}).
 */
final class BlockCacheDetailSource implements MetricSource {

  private final BlockCache cache;

  BlockCacheDetailSource(BlockCache cache) {
    this.cache = cache;
  }

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=RegionServer,sub=CellarBlockCache";
  }

  @Override
  public String recordName() {
    return "CellarBlockCache";
  }

  @Override
  public String context() {
    return "regionserver";
  }

  @Override
  public String description() {
    return "Cellar's block cache per tier, block category and bucket size class";
  }

  @Override
  public List<Metric> read() {
    List<Metric> out = new ArrayList<>();
    if (cache instanceof TwoTierBlockCache tiered) {
      addTier(out, "l1Cache", tiered.l1());
      addTier(out, "l2Cache", tiered.l2());
    } else if (cache != null) {
      addTier(out, "l1Cache", cache);
    }
    return out;
  }

  private static void addTier(List<Metric> out, String prefix, BlockCache tier) {
    out.add(
        Metric.text(
            prefix + "Implementation", "The tier's cache", tier.getClass().getSimpleName()));
    CacheStats.Snapshot stats = tier.stats().snapshot();
    for (BlockCategory category : BlockCategory.values()) {
      String word = HBaseNames.category(category);
      out.add(
          Metric.counter(
              prefix + word + "HitCount", "Hits on " + category + " blocks", stats.hits(category)));
      out.add(
          Metric.counter(
              prefix + word + "MissCount",
              "Misses of " + category + " blocks",
              stats.misses(category)));
    }
    out.add(
        Metric.counter(
            prefix + "EvictionRunCount", "Runs of the eviction process", stats.evictionCount()));
    if (tier instanceof BucketCache bucket) {
      addBuckets(out, bucket.snapshot());
    }
  }

  private static void addBuckets(List<Metric> out, BucketCacheSnapshot snapshot) {
    out.add(Metric.text("bucketCacheIoEngine", "The engine as configured", snapshot.ioEngine()));
    out.add(
        Metric.gauge(
            "bucketCacheEnabled",
            "1 while the engine works, 0 once disabled",
            snapshot.enabled() ? 1 : 0));
    out.add(
        Metric.gauge("bucketCacheCapacity", "Engine bytes in whole buckets", snapshot.capacity()));
    out.add(Metric.gauge("bucketCacheUsedSize", "Bytes of the slots in use", snapshot.usedSize()));
    out.add(
        Metric.gauge(
            "bucketCacheRealSize", "Bytes the cached blocks occupy", snapshot.realCacheSize()));
    out.add(
        Metric.gauge("bucketCacheFreeSize", "Capacity minus used slot bytes", snapshot.freeSize()));
    out.add(
        Metric.gauge(
            "bucketCacheFragmentationBytes",
            "Bytes lost inside slots to blocks smaller than their slot",
            snapshot.fragmentationBytes()));
    out.add(
        Metric.gauge(
            "bucketCacheQueuedCount", "Blocks waiting for a writer", snapshot.queuedCount()));
    out.add(
        Metric.counter(
            "bucketCacheChecksumFailures",
            "Stored blocks evicted because their bytes did not verify",
            snapshot.checksumFailures()));
    out.add(
        Metric.counter(
            "bucketCacheIoErrors", "Engine reads and writes that failed", snapshot.ioErrors()));
    for (SizeClassStats sizeClass : snapshot.sizeClasses()) {
      String prefix = "bucketSizeClass" + sizeClass.itemSize();
      String what = " of the " + sizeClass.itemSize() + "-byte slot class";
      out.add(Metric.gauge(prefix + "BucketCount", "Buckets" + what, sizeClass.bucketCount()));
      out.add(Metric.gauge(prefix + "TotalSlots", "Slots" + what, sizeClass.totalSlots()));
      out.add(Metric.gauge(prefix + "UsedSlots", "Used slots" + what, sizeClass.usedSlots()));
      out.add(Metric.gauge(prefix + "FreeSlots", "Free slots" + what, sizeClass.freeSlots()));
      out.add(Metric.gauge(prefix + "UsedBytes", "Used bytes" + what, sizeClass.usedBytes()));
      out.add(
          Metric.gauge(
              prefix + "FragmentationBytes",
              "Slot bytes left unused by blocks" + what,
              sizeClass.fragmentationBytes()));
      out.add(
          Metric.gauge(
              prefix + "FullBuckets",
              "Buckets without a free slot" + what,
              sizeClass.fullBuckets()));
      out.add(
          Metric.gauge(
              prefix + "FreeBuckets",
              "Buckets without a used slot" + what,
              sizeClass.completelyFreeBuckets()));
    }
  }
}
