package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheContractTest;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;

/**
 * The block cache contract against an inclusive cache whose tiers evict on their own threads, so
 * the L1's eviction offers blocks to the L2 concurrently with lookups, inserts and shutdown.
 */
class InclusiveCombinedBlockCacheBackgroundEvictionTest extends BlockCacheContractTest {

  @Override
  protected BlockCache newCache(long capacity) {
    BlockCache l2 = LruBlockCache.create(LruBlockCacheConfig.withCapacity(capacity));
    LruBlockCache l1 = LruBlockCache.create(LruBlockCacheConfig.withCapacity(capacity / 2), l2);
    return new InclusiveCombinedBlockCache(l1, l2);
  }
}
