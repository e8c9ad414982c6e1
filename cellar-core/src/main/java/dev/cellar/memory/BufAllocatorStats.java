package dev.cellar.memory;

/**
 * A snapshot of a {@link BufAllocator}'s counters.
 *
 * @param heapAllocationBytes bytes handed out from the heap (small requests, tails, pool
 *     exhaustion, pool disabled), since the allocator was created
 * @param poolAllocationBytes bytes handed out from pooled buffers since creation
 * @param heapAllocationCount allocations that took at least some memory from the heap
 * @param totalBufferCount pooled buffers created so far (created lazily, never freed)
 * @param usedBufferCount pooled buffers currently held by callers
 * @param maxBufferCount pooled buffers that may be created at most
 * @param bufferSize bytes in one pooled buffer
 */
public record BufAllocatorStats(
    long heapAllocationBytes,
    long poolAllocationBytes,
    long heapAllocationCount,
    int totalBufferCount,
    int usedBufferCount,
    int maxBufferCount,
    int bufferSize) {

  /** Heap bytes over all bytes handed out since creation; 0 when nothing was allocated. */
  public double heapAllocationRatio() {
    long total = heapAllocationBytes + poolAllocationBytes;
    return total == 0 ? 0 : (double) heapAllocationBytes / total;
  }

  /** Pooled buffers created and currently free. */
  public int freeBufferCount() {
    return totalBufferCount - usedBufferCount;
  }
}
