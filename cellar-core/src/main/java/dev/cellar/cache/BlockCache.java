package dev.cellar.cache;

import dev.cellar.memory.BufSource;

/**
 * A cache of file blocks keyed by (file, offset).
 *
 * <p>Ownership: {@link #cacheBlock} never takes the caller's reference; the cache retains the block
 * or stores a copy it owns, and the caller still releases its own reference. {@link
 * #getBlockRetained} hands out a block carrying a reference for the caller, which stays readable
 * after the cache evicts it until the caller releases it. Implementations are thread-safe.
 */
public interface BlockCache {

  /**
   * Offers {@code block} for caching under {@code key}. A cache may refuse it (too large, cache
   * over its hard limit), counting a failed insertion; a key already cached keeps its block.
   *
   * @param key the block's key, possibly a reader's {@link BlockCacheKey.Probe}: a cache keeps
   *     {@link BlockCacheKey#detached()} or the key's fields, never the probe
   * @param inMemory true for blocks of an in-memory column family, given the highest priority
   */
  void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory);

  /**
   * The block cached under {@code key} with one reference added for the caller, or null.
   *
   * @param caching whether the request would cache the block on a miss (for statistics)
   * @param repeat true for a second lookup of the same request, whose miss is not counted again
   * @param updateCacheMetrics false to leave the statistics untouched
   */
  Cacheable getBlockRetained(
      BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics);

  /**
   * The block cached under {@code key} with one reference added for the caller, or null, without
   * counting a request or touching recency or priority: for a loader that has just offered a block
   * and hands out the cache's own form of it (an on-heap cache's copy), so that the block's readers
   * get the same kind of memory on a miss as on a later hit. The default finds nothing.
   */
  default Cacheable peekBlockRetained(BlockCacheKey key) {
    return null;
  }

  /**
   * Whether a block that has just missed under {@code key} (whose expected category is known) is to
   * be read into this cache, or served to its reader only ({@link MissDoorkeeper}). The default
   * takes every block.
   */
  default boolean admitsOnMiss(BlockCacheKey key) {
    return true;
  }

  /**
   * Where a block of {@code category} that will not be cached is best read into, so that its
   * readers get the same kind of memory as from this cache (an on-heap cache's recycled arrays);
   * null when pooled memory will do. The default is null.
   */
  default BufSource uncachedBlockMemory(BlockCategory category) {
    return null;
  }

  /**
   * Where a block of {@code category} about to be offered to this cache is best read into, so that
   * the cache keeps the very buffer rather than a copy of it (an on-heap cache's recycled arrays);
   * null when any memory will do. The default is null.
   */
  default BufSource blockMemory(BlockCategory category) {
    return null;
  }

  /**
   * As {@link #cacheBlock}, for a block read into the memory {@link #blockMemory} gave for its
   * category: a cache that gave it keeps the block's buffer as it is. The default is {@link
   * #cacheBlock}.
   */
  default void cacheBlockInItsMemory(BlockCacheKey key, Cacheable block, boolean inMemory) {
    cacheBlock(key, block, inMemory);
  }

  /** True if a block is cached under {@code key}; neither touches statistics nor recency. */
  boolean containsBlock(BlockCacheKey key);

  /**
   * Removes the block under {@code key}, dropping the cache's reference.
   *
   * @return true if a block was removed
   */
  boolean evictBlock(BlockCacheKey key);

  /** Removes every block of file {@code fileName}; returns how many. */
  int evictBlocksByHfileName(String fileName);

  /** Bytes the cached blocks occupy, in the cache's own accounting. */
  long size();

  /** Bytes still available before the cache's capacity. */
  long freeSize();

  long blockCount();

  CacheStats stats();

  /** Stops background work and drops every cached block. */
  void shutdown();
}
