package dev.cellar.memory;

/**
 * A snapshot of a {@link BufAllocator}'s counters: heap fallbacks and each pooled size class. The
 * buffer counts without a class in their name sum both classes, so "every pooled buffer came back"
 * is {@code usedBufferCount() == 0} whatever the sizes involved.
 *
 * @param heapAllocationBytes bytes handed out from the heap (small requests, tails, pool
 *     exhaustion, pool disabled, sizes above every class), since the allocator was created
 * @param heapAllocationCount allocations that took at least some memory from the heap
 * @param buffers the class of HBase's buffer size ({@code hbase.server.allocator.buffer.size})
 * @param largeBuffers the class of blocks slightly above it ({@code
 *     cellar.server.allocator.large.buffer.size}); a max count of 0 when off
 */
public record BufAllocatorStats(
    long heapAllocationBytes,
    long heapAllocationCount,
    BufferPoolStats buffers,
    BufferPoolStats largeBuffers) {

  /** Bytes handed out from pooled buffers of either class since creation. */
  public long poolAllocationBytes() {
    return buffers.allocatedBytes() + largeBuffers.allocatedBytes();
  }

  /** Heap bytes over all bytes handed out since creation; 0 when nothing was allocated. */
  public double heapAllocationRatio() {
    long total = heapAllocationBytes + poolAllocationBytes();
    return total == 0 ? 0 : (double) heapAllocationBytes / total;
  }

  /** Pooled buffers of either class created so far. */
  public int totalBufferCount() {
    return buffers.createdCount() + largeBuffers.createdCount();
  }

  /** Pooled buffers of either class currently held by callers. */
  public int usedBufferCount() {
    return buffers.usedCount() + largeBuffers.usedCount();
  }

  /** Pooled buffers of either class created and currently free. */
  public int freeBufferCount() {
    return buffers.freeCount() + largeBuffers.freeCount();
  }
}
