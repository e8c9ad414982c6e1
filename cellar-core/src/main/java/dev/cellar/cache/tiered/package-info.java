/**
 * Two-tier block caches built from two {@link dev.cellar.cache.BlockCache}s, as HBase combines an
 * on-heap L1 with an L2: {@link dev.cellar.cache.tiered.CombinedBlockCache} keeps index, bloom and
 * meta blocks in the L1 and data blocks in the L2 (each block in one tier); {@link
 * dev.cellar.cache.tiered.InclusiveCombinedBlockCache} keeps every block in both, the L2 being the
 * L1's victim cache. Both count each request once in their own statistics and report HBase's
 * combined and per-tier figures as a {@link dev.cellar.cache.tiered.TieredStatsSnapshot}.
 *
 * <p>The tiers are any {@code BlockCache}s (the inclusive cache's L1 an {@link
 * dev.cellar.cache.LruBlockCache}); this package knows nothing of block contents or of how a tier
 * stores them.
 */
package dev.cellar.cache.tiered;
