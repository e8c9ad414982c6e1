package dev.cellar.cache;

/** The block cache contract against an LRU cache evicting on its own background thread. */
class LruBlockCacheBackgroundEvictionTest extends BlockCacheContractTest {

  @Override
  protected BlockCache newCache(long capacity) {
    return LruBlockCache.create(LruBlockCacheConfig.withCapacity(capacity));
  }
}
