package dev.cellar.cache.tiered;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.LruBlockCache;

/**
 * HBase's InclusiveCombinedBlockCache: every block is cached in both tiers, and the L2 is the L1's
 * victim cache. Lookups ask the L1 only; the L1 itself looks its misses up in the L2 and caches an
 * L2 hit again when the request is caching, and offers the L2 every block its eviction process
 * removes (see {@link LruBlockCache}'s victim cache). This class adds no fall-through of its own,
 * so each lookup reaches the L2 at most once. Meant for an L2 that lives outside the process's
 * memory budget (HBase uses it for external caches), where a hot copy in the L1 saves a slower
 * read.
 *
 * <p><b>Sizes.</b> {@link #size()} and {@link #freeSize()} are the sums of the tiers': both copies
 * of a block occupy memory. A block usually sits in both tiers, so {@link #blockCount()} and {@link
 * #evictBlocksByHfileName} count the blocks of the tier holding more of them: exact while one tier
 * holds every block of the other, a lower bound once each tier also holds blocks the other has
 * dropped. {@link #tierStats()} gives each tier's exact figures.
 *
 * <p><b>Statistics.</b> {@link #stats()} is this cache's own: each request counted once, a hit in
 * either tier being one hit. The tiers count what reached them, so a request the L2 serves is an L1
 * miss and an L2 hit there. It counts no evictions or failed insertions, which happen inside the
 * tiers; {@link #tierStats()} gives HBase's combined figures (requests from here, evictions and
 * failed insertions summed over the tiers) and each tier's figures.
 *
 * <p><b>Ownership and concurrency.</b> This class holds no block and no lock: each tier retains or
 * copies what it caches (never taking the caller's reference), and a lookup returns the tier's
 * block carrying a reference for the caller. It is as thread-safe as its tiers. It owns the tiers:
 * {@link #shutdown()} shuts the L1 down first, which waits for a running eviction that may still
 * offer blocks to the L2, then the L2.
 */
public final class InclusiveCombinedBlockCache extends TwoTierBlockCache {

  private final LruBlockCache lru;

  /**
   * A cache of every block in both {@code l1} and {@code l2}, which it owns from now on. {@code l1}
   * must have been built with {@code l2} as its victim cache (by the {@link LruBlockCache}
   * constructor or {@code create} method taking a victim).
   *
   * @throws IllegalArgumentException if {@code l2} is not {@code l1}'s victim cache
   */
  public InclusiveCombinedBlockCache(LruBlockCache l1, BlockCache l2) {
    super(l1, l2);
    this.lru = l1;
    if (l1.victimCache() != l2) {
      throw new IllegalArgumentException(
          "the L1 of an inclusive combined cache must be built with"
              + " the L2 as its victim cache, but it has "
              + (l1.victimCache() == null ? "no victim cache" : "a different victim cache"));
    }
  }

  /** The first tier, asked for every lookup. */
  @Override
  public LruBlockCache l1() {
    return lru;
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
    lru.cacheBlock(key, block, inMemory);
    l2().cacheBlock(key, block, inMemory);
  }

  @Override
  public Cacheable getBlockRetained(
      BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    Cacheable block = lru.getBlockRetained(key, caching, repeat, updateCacheMetrics);
    return counted(key, block, caching, repeat, updateCacheMetrics);
  }

  @Override
  public int evictBlocksByHfileName(String fileName) {
    return Math.max(lru.evictBlocksByHfileName(fileName), l2().evictBlocksByHfileName(fileName));
  }

  @Override
  public long blockCount() {
    return Math.max(lru.blockCount(), l2().blockCount());
  }
}
