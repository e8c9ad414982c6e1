package dev.cellar.observe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.tiered.TieredStatsSnapshot;
import dev.cellar.cache.tiered.TwoTierBlockCache;
import dev.cellar.memory.BufAllocatorStats;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import dev.cellar.store.Region;
import dev.cellar.store.Store;
import dev.cellar.store.memstore.MemStoreSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * HBase's {@code Hadoop:service=HBase,name=RegionServer,sub=Server}: tables and files, MemStore
 * sizes, request counts, the block cache as a whole and per tier ({@code blockCache*}, {@code
 * l1Cache*}, {@code l2Cache*}), the pooled allocator ({@code ByteBuffAllocator*}), flush and
 * compaction figures, GC pauses and the operation latency histograms, under HBase's attribute names
 * (see {@link Histograms} for the histograms' units; Gets and scanned rows time a sample of their
 * calls, see {@link EngineMetrics}). Cellar's own histograms ({@code MultiGet}, {@code ScanNext})
 * follow the same pattern.
 *
 * <p>Reading walks every store and lists its files' sizes: cheap for the handful of tables an
 * embedded database holds, and only done when someone asks.
 */
final class RegionServerSource implements MetricSource {

  /** A cache tier that is not configured: no blocks, no requests. */
  private static final TieredStatsSnapshot.Tier ABSENT =
      new TieredStatsSnapshot.Tier(new CacheStats().snapshot(), 0, 0, 0);

  private final ObservedDatabase database;

  RegionServerSource(ObservedDatabase database) {
    this.database = database;
  }

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=RegionServer,sub=Server";
  }

  @Override
  public String recordName() {
    return "Server";
  }

  @Override
  public String context() {
    return "regionserver";
  }

  @Override
  public String description() {
    return "Metrics about the Cellar database, under HBase's RegionServer names";
  }

  @Override
  public List<Metric> read() {
    List<Metric> out = new ArrayList<>();
    out.add(Metric.text("serverName", "Server Name", database.serverName()));
    out.add(
        Metric.gauge("regionServerStartTime", "RegionServer Start Time", database.startMillis()));
    addStores(out);
    addRequests(out, database.metrics());
    addBlockCache(out, database.cache());
    addAllocator(out, database.allocator().stats());
    addHistograms(out, database.metrics());
    return out;
  }

  private void addStores(List<Metric> out) {
    long regions = 0;
    long stores = 0;
    long files = 0;
    long fileBytes = 0;
    long maxFiles = 0;
    MemStoreSize memStore = MemStoreSize.EMPTY;
    for (Region region : database.regions().get()) {
      regions++;
      for (Store store : region.stores()) {
        stores++;
        files += store.fileCount();
        maxFiles = Math.max(maxFiles, store.fileCount());
        fileBytes += sizeOf(store.filePaths());
        memStore = memStore.plus(store.memStoreSize());
      }
    }
    out.add(Metric.gauge("regionCount", "Number of regions", regions));
    out.add(Metric.gauge("storeCount", "Number of Stores", stores));
    out.add(Metric.gauge("storeFileCount", "Number of Store Files", files));
    out.add(Metric.gauge("maxStoreFileCount", "Max store file count across all regions", maxFiles));
    out.add(Metric.gauge("storeFileSize", "Size of storefiles being served.", fileBytes));
    out.add(Metric.gauge("memStoreSize", "Size of the memstore", memStore.dataSize()));
    out.add(Metric.gauge("memStoreHeapSize", "On-heap Size of the memstore", memStore.heapSize()));
    out.add(
        Metric.gauge(
            "memStoreOffHeapSize", "Off-heap Size of the memstore", memStore.offHeapSize()));
  }

  static long sizeOf(List<Path> paths) {
    long sum = 0;
    for (Path path : paths) {
      try {
        sum += Files.size(path);
      } catch (IOException e) {
        // a file compacted away since it was listed: it no longer counts
      }
    }
    return sum;
  }

  private static void addRequests(List<Metric> out, EngineMetrics metrics) {
    long reads = metrics.count(Counter.READ_REQUESTS);
    long writes = metrics.count(Counter.WRITE_REQUESTS);
    out.add(
        Metric.counter(
            "totalRequestCount",
            metrics.isServedOverRpc()
                ? "Total number of requests answered, one per RPC"
                : "Total number of requests: rows read and written (an embedded database has no RPCs)",
            metrics.isServedOverRpc() ? metrics.count(Counter.RPC_REQUESTS) : reads + writes));
    out.add(
        Metric.counter(
            "totalRowActionRequestCount",
            "Rows read and written: readRequestCount plus writeRequestCount",
            reads + writes));
    out.add(Metric.counter("readRequestCount", "Number of rows read by gets and scans", reads));
    out.add(
        Metric.counter(
            "writeRequestCount",
            "Number of mutation requests this RegionServer has answered.",
            writes));
    for (Counter counter :
        new Counter[] {
          Counter.CHECK_MUTATE_PASSED,
          Counter.CHECK_MUTATE_FAILED,
          Counter.FLUSHED_MEMSTORE_BYTES,
          Counter.FLUSHED_OUTPUT_BYTES,
          Counter.PAUSE_INFO_THRESHOLD,
          Counter.PAUSE_WARN_THRESHOLD,
          Counter.RPC_GET_REQUESTS,
          Counter.RPC_SCAN_REQUESTS,
          Counter.RPC_MULTI_REQUESTS,
          Counter.RPC_MUTATE_REQUESTS
        }) {
      out.add(Metric.counter(counter.metricName(), counter.metricName(), metrics.count(counter)));
    }
  }

  /**
   * Publishes the block cache as a whole and per tier; a tier that is not configured is published
   * at zero, as HBase publishes its {@code l2Cache*} without an L2, so that dashboards built on the
   * names find them.
   */
  private static void addBlockCache(List<Metric> out, BlockCache cache) {
    if (cache == null) {
      addTier(out, "l1Cache", ABSENT);
      addTier(out, "l2Cache", ABSENT);
      return;
    }
    CacheStats.Snapshot stats;
    if (cache instanceof TwoTierBlockCache tiered) {
      TieredStatsSnapshot snapshot = tiered.tierStats();
      stats = snapshot.combined();
      addTier(out, "l1Cache", snapshot.l1());
      addTier(out, "l2Cache", snapshot.l2());
    } else {
      stats = cache.stats().snapshot();
      addTier(
          out,
          "l1Cache",
          new TieredStatsSnapshot.Tier(stats, cache.size(), cache.freeSize(), cache.blockCount()));
      addTier(out, "l2Cache", ABSENT);
    }
    out.add(
        Metric.gauge(
            "blockCacheFreeSize",
            "Size of the block cache that is not occupied.",
            cache.freeSize()));
    out.add(
        Metric.gauge("blockCacheCount", "Number of block in the block cache.", cache.blockCount()));
    out.add(Metric.gauge("blockCacheSize", "Size of the block cache.", cache.size()));
    out.add(
        Metric.counter(
            "blockCacheHitCount", "Count of the hit on the block cache.", stats.hitCount()));
    out.add(
        Metric.counter(
            "blockCacheHitCachingCount",
            "Count of hits from requests that wanted the block cached",
            stats.hitCachingCount()));
    out.add(
        Metric.counter(
            "blockCacheMissCount",
            "Number of requests for a block that missed",
            stats.missCount()));
    out.add(
        Metric.counter(
            "blockCacheMissCachingCount",
            "Misses of requests that wanted the block cached",
            stats.missCachingCount()));
    out.add(
        Metric.counter(
            "blockCacheEvictionCount",
            "Blocks evicted from the block cache",
            stats.evictedBlockCount()));
    out.add(
        Metric.gauge(
            "blockCacheCountHitPercent",
            "Percent of block cache requests that are hits",
            stats.hitRatio() * 100));
    out.add(
        Metric.gauge(
            "blockCacheExpressHitPercent",
            "Percent of requests wanting caching that were hits",
            stats.hitCachingRatio() * 100));
    out.add(
        Metric.counter(
            "blockCacheFailedInsertionCount",
            "Blocks the cache refused to store",
            stats.failedInsertions()));
    out.add(
        Metric.counter(
            "blockCacheLeftOutCount",
            "Missed data blocks a churning cache served without taking them in (first misses)",
            stats.leftOutCount()));
    for (BlockCategory category : BlockCategory.values()) {
      String word = HBaseNames.category(category);
      out.add(
          Metric.counter(
              "blockCache" + word + "HitCount",
              "Hits on " + category + " blocks",
              stats.hits(category)));
      out.add(
          Metric.counter(
              "blockCache" + word + "MissCount",
              "Misses of " + category + " blocks",
              stats.misses(category)));
    }
  }

  private static void addTier(List<Metric> out, String prefix, TieredStatsSnapshot.Tier tier) {
    out.add(Metric.gauge(prefix + "FreeSize", "Free bytes of the tier", tier.freeSize()));
    out.add(Metric.gauge(prefix + "Size", "Bytes the tier's blocks occupy", tier.size()));
    out.add(Metric.gauge(prefix + "Count", "Blocks in the tier", tier.blockCount()));
    out.add(
        Metric.counter(prefix + "EvictionCount", "Blocks the tier evicted", tier.evictionCount()));
    out.add(Metric.counter(prefix + "HitCount", "Hits in the tier", tier.hitCount()));
    out.add(Metric.counter(prefix + "MissCount", "Misses in the tier", tier.missCount()));
    out.add(
        Metric.counter(
            prefix + "LeftOutCount",
            "Missed data blocks the tier served without taking them in",
            tier.stats().leftOutCount()));
    out.add(Metric.gauge(prefix + "HitRatio", "Hits over requests of the tier", tier.hitRatio()));
    out.add(
        Metric.gauge(prefix + "MissRatio", "Misses over requests of the tier", tier.missRatio()));
  }

  private static void addAllocator(List<Metric> out, BufAllocatorStats stats) {
    out.add(
        Metric.counter(
            "ByteBuffAllocatorHeapAllocationBytes",
            "Bytes allocated from the heap",
            stats.heapAllocationBytes()));
    out.add(
        Metric.counter(
            "ByteBuffAllocatorPoolAllocationBytes",
            "Bytes allocated from pooled buffers",
            stats.poolAllocationBytes()));
    out.add(
        Metric.gauge(
            "ByteBuffAllocatorHeapAllocationRatio",
            "Heap bytes over all bytes allocated",
            stats.heapAllocationRatio()));
    out.add(
        Metric.gauge(
            "ByteBuffAllocatorTotalBufferCount",
            "Total buffer count in ByteBuffAllocator",
            stats.totalBufferCount()));
    out.add(
        Metric.gauge(
            "ByteBuffAllocatorUsedBufferCount",
            "Used buffer count in ByteBuffAllocator",
            stats.usedBufferCount()));
  }

  private static void addHistograms(List<Metric> out, EngineMetrics metrics) {
    for (Operation operation : Operation.values()) {
      if (operation.measuresBytes()) {
        Histograms.addSizes(
            out,
            operation.metricName(),
            operation.metricName(),
            metrics.operations(operation),
            metrics.snapshot(operation));
      } else {
        Histograms.add(
            out,
            operation.metricName(),
            operation.metricName(),
            metrics.operations(operation),
            metrics.snapshot(operation));
      }
    }
  }
}
