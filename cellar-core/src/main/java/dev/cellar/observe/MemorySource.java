package dev.cellar.observe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.tiered.TwoTierBlockCache;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorStats;
import dev.cellar.memory.BufferPoolStats;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.ChunkPoolStats;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * Cellar's own {@code Hadoop:service=HBase,name=RegionServer,sub=CellarMemory}: where the memory
 * is. The pooled allocator per buffer class ({@code allocatorBuffer*}, {@code
 * allocatorLargeBuffer*}: size, created, used, free, max), the MemStore chunk pool ({@code
 * chunkPool*}), and the totals the UI charts: {@code offHeapBytes} (pooled buffers and chunks
 * created, plus an off-heap or mmap bucket engine's capacity) against {@code heapUsedBytes}.
 */
final class MemorySource implements MetricSource {

  private final BufAllocator allocator;
  private final ChunkPool chunkPool;
  private final BlockCache cache;

  MemorySource(BufAllocator allocator, ChunkPool chunkPool, BlockCache cache) {
    this.allocator = allocator;
    this.chunkPool = chunkPool;
    this.cache = cache;
  }

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=RegionServer,sub=CellarMemory";
  }

  @Override
  public String recordName() {
    return "CellarMemory";
  }

  @Override
  public String context() {
    return "regionserver";
  }

  @Override
  public String description() {
    return "Cellar's pooled buffers, MemStore chunks and off-heap totals";
  }

  @Override
  public List<Metric> read() {
    List<Metric> out = new ArrayList<>();
    BufAllocatorStats stats = allocator.stats();
    addPool(out, "allocatorBuffer", stats.buffers());
    addPool(out, "allocatorLargeBuffer", stats.largeBuffers());
    out.add(
        Metric.counter(
            "allocatorHeapAllocationCount",
            "Allocations that took memory from the heap",
            stats.heapAllocationCount()));
    long offHeap =
        (long) stats.buffers().createdCount() * stats.buffers().bufferSize()
            + (long) stats.largeBuffers().createdCount() * stats.largeBuffers().bufferSize();
    if (chunkPool != null) {
      ChunkPoolStats chunks = chunkPool.stats();
      out.add(Metric.gauge("chunkPoolChunkSize", "Bytes in one chunk", chunks.chunkSize()));
      out.add(Metric.gauge("chunkPoolMaxCount", "Chunks the pool may create", chunks.maxCount()));
      out.add(Metric.gauge("chunkPoolCreatedCount", "Chunks created", chunks.createdCount()));
      out.add(
          Metric.gauge(
              "chunkPoolPooledCount", "Created chunks free in the pool", chunks.pooledCount()));
      out.add(Metric.gauge("chunkPoolInUseCount", "Chunks held by MemStores", chunks.inUseCount()));
      out.add(
          Metric.counter(
              "chunkPoolHeapChunkCount", "One-off heap chunks made", chunks.heapChunkCount()));
      offHeap += (long) chunks.createdCount() * chunks.chunkSize();
    }
    BucketCache bucket = bucketOf(cache);
    if (bucket != null
        && !bucket.ioEngine().startsWith("heap")
        && !bucket.ioEngine().startsWith("file")) {
      offHeap += bucket.snapshot().capacity();
    }
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    out.add(Metric.gauge("offHeapBytes", "Off-heap bytes Cellar holds", offHeap));
    out.add(Metric.gauge("heapUsedBytes", "Heap bytes in use by the JVM", heap.getUsed()));
    out.add(Metric.gauge("heapMaxBytes", "The JVM's maximum heap", heap.getMax()));
    return out;
  }

  private static void addPool(List<Metric> out, String prefix, BufferPoolStats pool) {
    out.add(Metric.gauge(prefix + "Size", "Bytes in one buffer", pool.bufferSize()));
    out.add(Metric.gauge(prefix + "MaxCount", "Buffers that may be created", pool.maxCount()));
    out.add(Metric.gauge(prefix + "CreatedCount", "Buffers created", pool.createdCount()));
    out.add(Metric.gauge(prefix + "UsedCount", "Buffers held by callers", pool.usedCount()));
    out.add(Metric.gauge(prefix + "FreeCount", "Buffers created and free", pool.freeCount()));
    out.add(
        Metric.counter(
            prefix + "AllocatedBytes", "Bytes handed out from this class", pool.allocatedBytes()));
  }

  static BucketCache bucketOf(BlockCache cache) {
    if (cache instanceof BucketCache bucket) {
      return bucket;
    }
    if (cache instanceof TwoTierBlockCache tiered) {
      return bucketOf(tiered.l2());
    }
    return null;
  }
}
