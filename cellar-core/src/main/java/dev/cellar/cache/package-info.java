/**
 * Block caches: the {@link dev.cellar.cache.BlockCache} API keyed by {@link
 * dev.cellar.cache.BlockCacheKey} (file, offset), and the on-heap first level {@link
 * dev.cellar.cache.LruBlockCache} with HBase's priorities, factors and keys. A cache stores {@link
 * dev.cellar.cache.Cacheable}s and knows nothing about their contents beyond size and {@link
 * dev.cellar.cache.BlockCategory}.
 *
 * <h2>Ownership</h2>
 *
 * <p>Caching a block never takes the caller's reference: the cache retains the block or stores a
 * copy it owns. {@code getBlockRetained} adds a reference for the caller, who releases it; a block
 * evicted while held stays readable until then. Eviction drops only the cache's own reference.
 */
package dev.cellar.cache;
