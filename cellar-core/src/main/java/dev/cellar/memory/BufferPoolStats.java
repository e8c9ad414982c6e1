package dev.cellar.memory;

/**
 * A snapshot of one size class of a {@link BufAllocator}'s pool.
 *
 * @param bufferSize bytes in one pooled buffer of this class
 * @param maxCount buffers that may be created at most (0: the class is off)
 * @param createdCount buffers created so far (created lazily, never freed)
 * @param usedCount buffers currently held by callers
 * @param allocatedBytes bytes handed out from this class's buffers since creation (a request
 *     smaller than a buffer counts its own size)
 */
public record BufferPoolStats(
    int bufferSize, int maxCount, int createdCount, int usedCount, long allocatedBytes) {

  /** Buffers created and currently free. */
  public int freeCount() {
    return createdCount - usedCount;
  }
}
