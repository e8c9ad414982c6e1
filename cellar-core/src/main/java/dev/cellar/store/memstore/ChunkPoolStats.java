package dev.cellar.store.memstore;

/**
 * A snapshot of a {@link ChunkPool}'s counters.
 *
 * @param chunkSize bytes in one chunk
 * @param maxCount off-heap chunks the pool may create at most
 * @param createdCount off-heap chunks created so far (never freed before the pool closes)
 * @param pooledCount created chunks that are free in the pool, ready for reuse
 * @param inUseCount created chunks currently held by MSLABs
 * @param heapChunkCount one-off heap chunks made since creation because the pool was exhausted or
 *     disabled
 */
public record ChunkPoolStats(
    int chunkSize,
    int maxCount,
    int createdCount,
    int pooledCount,
    int inUseCount,
    long heapChunkCount) {}
