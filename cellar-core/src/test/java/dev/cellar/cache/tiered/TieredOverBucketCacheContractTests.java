package dev.cellar.cache.tiered;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheContractTest;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.bucket.BucketCacheConfig;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Nested;

/**
 * The block cache contract against both tiered caches with an off-heap {@link BucketCache} as their
 * L2, as {@link BlockCacheFactory} builds them.
 */
class TieredOverBucketCacheContractTests {

  /** 5 and 9 KiB slots, so the contract's small capacities still hold enough buckets. */
  static final int[] SMALL_SIZES = {5120, 9216};

  static BucketCache bucketCache(BufAllocator allocator, long capacity) {
    try {
      return BucketCache.create(
          BucketCacheConfig.of("offheap", capacity).withBucketSizes(SMALL_SIZES), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void awaitWrites(BlockCache l2) {
    try {
      assertTrue(((BucketCache) l2).awaitQueuedWrites(10_000), "writers did not catch up");
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Nested
  class Combined extends BlockCacheContractTest {
    @Override
    protected BlockCache newCache(long capacity) {
      return new CombinedBlockCache(
          new LruBlockCache(LruBlockCacheConfig.withCapacity(capacity), Runnable::run),
          bucketCache(allocator, capacity));
    }

    @Override
    protected void settle(BlockCache cache) {
      awaitWrites(((CombinedBlockCache) cache).l2());
    }
  }

  @Nested
  class Inclusive extends BlockCacheContractTest {
    @Override
    protected BlockCache newCache(long capacity) {
      BucketCache l2 = bucketCache(allocator, capacity);
      return new InclusiveCombinedBlockCache(
          new LruBlockCache(LruBlockCacheConfig.withCapacity(capacity), Runnable::run, l2), l2);
    }

    @Override
    protected void settle(BlockCache cache) {
      awaitWrites(((InclusiveCombinedBlockCache) cache).l2());
    }
  }
}
