package dev.cellar.store.memstore;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.memory.BufAllocatorStats;
import dev.cellar.memory.BufferPoolStats;

/**
 * The fixed-size chunks every MSLAB of a process takes its memory from, pooled as HBase's {@code
 * ChunkCreator} and {@code MemStoreChunkPool} pool them (sizing in {@link MemStoreConfig}).
 *
 * <p><b>Policy.</b> {@link #take()} reuses a free pooled chunk, else creates a new off-heap one
 * while fewer than the maximum exist, else (pool exhausted, or no pool at all) makes a one-off heap
 * chunk that the garbage collector reclaims: HBase's on-demand chunk. A pooled chunk goes back to
 * the pool when its last reference is released and is never freed before {@link #close()}. The
 * initial count is created when the pool is built.
 *
 * <p><b>Memory.</b> The chunks are the buffers of a {@link BufAllocator} whose buffer size is the
 * chunk size and whose minimal allocation is 0: the allocator carves them lazily from one
 * long-lived shared arena (so no arena is made per chunk, and every arena stays in {@code
 * dev.cellar.memory}), counts them with a {@code RefCnt} each and hands pooled ones to the leak
 * detector, so a chunk an MSLAB never released fails the test that leaked it. The allocator creates
 * its memory in slabs of about 2 MiB, so with chunks smaller than that {@link
 * ChunkPoolStats#createdCount()} grows by a slab's worth at a time.
 *
 * <p><b>Concurrency.</b> Thread-safe: taking and returning a chunk costs one CAS on the allocator's
 * free stacks plus one on the chunk's count; creating memory is the only locked step.
 */
public final class ChunkPool implements AutoCloseable {

  private final BufAllocator allocator;
  private final int chunkSize;

  /** A pool with the chunk size and counts of {@code config}. */
  public ChunkPool(MemStoreConfig config) {
    this(config.chunkSize(), config.poolMaxCount(), config.poolInitialCount());
  }

  /**
   * A pool of at most {@code maxCount} off-heap chunks of {@code chunkSize} bytes, {@code
   * initialCount} of them created now; {@code maxCount} 0 makes every chunk a heap chunk.
   */
  public ChunkPool(int chunkSize, int maxCount, int initialCount) {
    if (chunkSize <= 0 || maxCount < 0) {
      throw new IllegalArgumentException(
          "chunk size must be > 0 and max count >= 0, were " + chunkSize + " and " + maxCount);
    }
    if (initialCount < 0 || initialCount > maxCount) {
      throw new IllegalArgumentException(
          "initial count must be between 0 and " + maxCount + ", was " + initialCount);
    }
    this.chunkSize = chunkSize;
    this.allocator = new BufAllocator(new BufAllocatorConfig(maxCount > 0, chunkSize, maxCount, 0));
    Buf[] initial = new Buf[initialCount];
    for (int i = 0; i < initialCount; i++) {
      initial[i] = allocator.allocateContiguous(chunkSize);
    }
    for (Buf chunk : initial) {
      chunk.release();
    }
  }

  /** Bytes in one chunk. */
  public int chunkSize() {
    return chunkSize;
  }

  /** A chunk holding one reference, which its taker releases with {@link Chunk#release()}. */
  Chunk take() {
    return new Chunk(allocator.allocateContiguous(chunkSize).touch("memstore chunk"));
  }

  /** The pool's counters; read without a common lock, so only roughly consistent under load. */
  public ChunkPoolStats stats() {
    BufAllocatorStats stats = allocator.stats();
    BufferPoolStats chunks = stats.buffers();
    return new ChunkPoolStats(
        chunkSize,
        chunks.maxCount(),
        chunks.createdCount(),
        chunks.freeCount(),
        chunks.usedCount(),
        stats.heapAllocationCount());
  }

  /**
   * Frees the pooled memory. Every chunk must have been released (every MSLAB closed and every
   * scanner over one closed): otherwise this throws and frees nothing.
   */
  @Override
  public void close() {
    allocator.close();
  }
}
