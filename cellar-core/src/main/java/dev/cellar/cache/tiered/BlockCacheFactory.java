package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.bucket.BucketCacheConfig;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

/**
 * Builds the process's block cache from configuration, as HBase's BlockCacheFactory does:
 *
 * <ul>
 *   <li>{@code hfile.block.cache.size} at or below 0.0001 (and no {@code
 *       hfile.block.cache.memory.size}): no block cache at all, not even an L2;
 *   <li>otherwise an L1 {@link LruBlockCache} ({@code hfile.block.cache.policy} must be {@code
 *       LRU}, the only policy Cellar has);
 *   <li>{@code hbase.bucketcache.ioengine} set: a {@link BucketCache} L2 of {@code
 *       hbase.bucketcache.size} MiB and a {@link CombinedBlockCache} of the two, or, with {@value
 *       #INCLUSIVE_KEY}{@code =true}, an {@link InclusiveCombinedBlockCache} with the bucket cache
 *       as the L1's victim;
 *   <li>{@code hbase.bucketcache.combinedcache.enabled=false} is refused: HBase only warns and
 *       combines anyway, since the non-combined mode was removed in 2.0.
 * </ul>
 *
 * Invalid values throw {@link InvalidConfigException} naming the key. Stateless.
 */
public final class BlockCacheFactory {

  public static final String POLICY_KEY = "hfile.block.cache.policy";
  public static final String COMBINED_ENABLED_KEY = "hbase.bucketcache.combinedcache.enabled";

  /** Cellar's own key: every block in both tiers, the L2 as the L1's victim. */
  public static final String INCLUSIVE_KEY = "cellar.blockcache.inclusive";

  /** HBase's threshold below which the cache fraction means "no block cache". */
  static final double DISABLED_FRACTION = 0.0001;

  private BlockCacheFactory() {}

  /**
   * The block cache {@code settings} describe, or empty when they disable block caching.
   *
   * @param allocator the pooled allocator copying L2 engines read blocks into
   * @throws IOException if the L2's engine cannot be created
   */
  public static Optional<BlockCache> create(Settings settings, BufAllocator allocator)
      throws IOException {
    return create(settings, allocator, Runtime.getRuntime().maxMemory());
  }

  /**
   * The bytes {@code cache} is configured to hold data blocks in: an LRU's maximum size, a bucket
   * cache's engine capacity, and a tiered cache's L2 (where a combined cache keeps its data blocks,
   * and an inclusive one all of its blocks).
   */
  public static long dataCapacity(BlockCache cache) {
    return switch (cache) {
      case LruBlockCache lru -> lru.config().maxSize();
      case BucketCache bucket -> bucket.snapshot().capacity();
      case TwoTierBlockCache tiered -> dataCapacity(tiered.l2());
      default -> cache.size() + cache.freeSize();
    };
  }

  /** As {@link #create(Settings, BufAllocator)}, sizing a fractional L1 against {@code maxHeap}. */
  public static Optional<BlockCache> create(Settings settings, BufAllocator allocator, long maxHeap)
      throws IOException {
    String policy = settings.getString(POLICY_KEY, "LRU");
    if (!policy.trim().toUpperCase(Locale.ROOT).equals("LRU")) {
      throw new InvalidConfigException(POLICY_KEY, policy, "Cellar's L1 policy is LRU");
    }
    if (settings.getBytes(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, 0) <= 0
        && settings.getDouble(
                LruBlockCacheConfig.CACHE_SIZE_KEY, LruBlockCacheConfig.DEFAULT_CACHE_SIZE)
            <= DISABLED_FRACTION) {
      return Optional.empty();
    }
    LruBlockCacheConfig l1Config = LruBlockCacheConfig.from(settings, maxHeap);
    if (!BucketCacheConfig.isConfigured(settings)) {
      return Optional.of(LruBlockCache.create(l1Config));
    }
    if (!settings.getBoolean(COMBINED_ENABLED_KEY, true)) {
      throw new InvalidConfigException(
          COMBINED_ENABLED_KEY,
          "false",
          "an L2 bucket cache is always combined with the L1; unset "
              + BucketCacheConfig.IOENGINE_KEY
              + " for an L1 alone");
    }
    BucketCache l2 = BucketCache.create(BucketCacheConfig.from(settings), allocator);
    if (settings.getBoolean(INCLUSIVE_KEY, false)) {
      return Optional.of(new InclusiveCombinedBlockCache(LruBlockCache.create(l1Config, l2), l2));
    }
    return Optional.of(new CombinedBlockCache(LruBlockCache.create(l1Config), l2));
  }
}
