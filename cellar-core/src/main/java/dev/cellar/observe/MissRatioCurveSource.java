package dev.cellar.observe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.MissRatioCurve;
import dev.cellar.cache.MissRatioCurveTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * Cellar's own {@code Hadoop:service=HBase,name=RegionServer,sub=CellarMissRatioCurve}: the
 * estimated hit ratio of the block cache's data-block lookups at other sizes ({@link
 * MissRatioCurveTracker}), beside the ratio measured at the configured size ({@code
 * measuredHitRatio}: data hits over data lookups since the cache started). The curve's points run
 * from 1/8 to 4 times the configured size, six to an octave: {@code point00Size} (bytes) and {@code
 * point00HitRatio} to {@code point30Size} and {@code point30HitRatio}, the configured size being
 * {@code point18}; {@code configuredCacheSize}, {@code configuredPoint} and {@code
 * configuredHitRatio} name it. {@code samplingRate}, {@code sampledAccesses} and {@code
 * trackedBlocks} say how much the estimate rests on. Ratios are NaN until a sampled block is read.
 */
final class MissRatioCurveSource implements MetricSource {

  private final MissRatioCurveTracker tracker;
  private final BlockCache cache;

  MissRatioCurveSource(MissRatioCurveTracker tracker, BlockCache cache) {
    this.tracker = tracker;
    this.cache = cache;
  }

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=RegionServer,sub=CellarMissRatioCurve";
  }

  @Override
  public String recordName() {
    return "CellarMissRatioCurve";
  }

  @Override
  public String context() {
    return "regionserver";
  }

  @Override
  public String description() {
    return "The block cache's estimated hit ratio at other sizes (SHARDS)";
  }

  @Override
  public List<Metric> read() {
    MissRatioCurve curve = tracker.curve();
    List<Metric> out = new ArrayList<>();
    out.add(
        Metric.gauge(
            "configuredCacheSize", "The block cache's configured bytes", curve.configuredBytes()));
    out.add(
        Metric.gauge(
            "configuredPoint", "The point of the configured size", curve.configuredPoint()));
    out.add(
        Metric.gauge(
            "configuredHitRatio",
            "Estimated hit ratio of data-block lookups at the configured size",
            curve.hitRatios()[curve.configuredPoint()]));
    CacheStats.Snapshot stats = cache.stats().snapshot();
    long hits = stats.hits(BlockCategory.DATA);
    long lookups = stats.dataLookups();
    out.add(
        Metric.gauge(
            "measuredHitRatio",
            "Data-block hits over data-block lookups, measured at the configured size",
            lookups == 0 ? Double.NaN : (double) hits / lookups));
    out.add(Metric.gauge("samplingRate", "Fraction of the blocks sampled", curve.rate()));
    out.add(
        Metric.counter(
            "sampledAccesses", "Lookups of sampled blocks counted", curve.sampledAccesses()));
    out.add(Metric.gauge("trackedBlocks", "Sampled blocks tracked now", curve.trackedBlocks()));
    for (int k = 0; k < curve.sizes().length; k++) {
      String point = String.format("point%02d", k);
      out.add(Metric.gauge(point + "Size", "Cache bytes of point " + k, curve.sizes()[k]));
      out.add(
          Metric.gauge(
              point + "HitRatio",
              "Estimated hit ratio of data-block lookups at point " + k,
              curve.hitRatios()[k]));
    }
    return out;
  }
}
