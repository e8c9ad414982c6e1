package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.memory.BufSource;

/**
 * HBase's CombinedBlockCache: an exclusive pair of tiers, each block in exactly one. Blocks whose
 * category is not {@link BlockCategory#DATA} (index, bloom and meta blocks, small and read on every
 * lookup) go to the L1, on the heap; DATA blocks go to the L2 (a BucketCache off heap or on file,
 * or any other {@link BlockCache}). Blocks the L1 evicts are dropped, not moved to the L2.
 *
 * <p><b>Lookups.</b> A key carrying an {@linkplain BlockCacheKey#expectedCategory() expected
 * category} asks only that category's tier. Otherwise the L1 is asked whether it holds the key
 * ({@link BlockCache#containsBlock}, which counts nothing) and the lookup goes to the L1 if so, to
 * the L2 if not; either way exactly one tier counts the request. A block evicted from the L1
 * between the check and the read is a miss, as it would be a moment later.
 *
 * <p><b>Statistics.</b> {@link #stats()} is this cache's own: each request counted once, a hit in
 * either tier being one hit (per category: the block's on a hit, the key's expected one on a miss).
 * It counts no evictions or failed insertions, which happen inside the tiers and are reported by
 * their own {@code stats()}; {@link #tierStats()} gives HBase's combined figures (requests from
 * here, evictions and failed insertions summed over the tiers) and each tier's figures. Sizes and
 * counts are the sums of the tiers'.
 *
 * <p><b>Ownership and concurrency.</b> This class holds no block and no lock: it forwards each call
 * to its tiers, which retain or copy what they cache (never taking the caller's reference) and hand
 * out blocks carrying a reference for the caller. It is as thread-safe as its tiers. It owns the
 * tiers: {@link #shutdown()} shuts both down.
 */
public final class CombinedBlockCache extends TwoTierBlockCache {

  /**
   * A cache of index, bloom and meta blocks in {@code l1} and data blocks in {@code l2}, which it
   * owns from now on.
   */
  public CombinedBlockCache(BlockCache l1, BlockCache l2) {
    super(l1, l2);
  }

  private BlockCache tierOf(BlockCategory category) {
    return category == BlockCategory.DATA ? l2() : l1();
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
    tierOf(block.category()).cacheBlock(key, block, inMemory);
  }

  @Override
  public void cacheBlockInItsMemory(BlockCacheKey key, Cacheable block, boolean inMemory) {
    tierOf(block.category()).cacheBlockInItsMemory(key, block, inMemory);
  }

  /**
   * The memory of the tier that will keep the block. A block of unknown category (a scan's next
   * block) is most likely data, so it gets the L2's: should it be an index or bloom block, the L1
   * copies it, as it copies any block not read into its own memory.
   */
  @Override
  public BufSource blockMemory(BlockCategory category) {
    BlockCategory likely = category == null ? BlockCategory.DATA : category;
    return tierOf(likely).blockMemory(likely);
  }

  /** The decision of the tier that would keep the block. */
  @Override
  public boolean admitsOnMiss(BlockCacheKey key) {
    return tierOf(key.expectedCategory()).admitsOnMiss(key);
  }

  @Override
  public BufSource uncachedBlockMemory(BlockCategory category) {
    return tierOf(category).uncachedBlockMemory(category);
  }

  @Override
  public Cacheable getBlockRetained(
      BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    BlockCategory expected = key.expectedCategory();
    BlockCache tier = expected != null ? tierOf(expected) : l1().containsBlock(key) ? l1() : l2();
    Cacheable block = tier.getBlockRetained(key, caching, repeat, updateCacheMetrics);
    return counted(key, block, caching, repeat, updateCacheMetrics);
  }

  @Override
  public int evictBlocksByHfileName(String fileName) {
    return l1().evictBlocksByHfileName(fileName) + l2().evictBlocksByHfileName(fileName);
  }

  @Override
  public long blockCount() {
    return l1().blockCount() + l2().blockCount();
  }
}
