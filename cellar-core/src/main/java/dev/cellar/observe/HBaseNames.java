package dev.cellar.observe;

import dev.cellar.cache.BlockCategory;

/** The words HBase's metric names use for Cellar's concepts. */
final class HBaseNames {

  private HBaseNames() {}

  /**
   * The block category's word in HBase's per-category cache counters ({@code
   * blockCacheDataHitCount}, {@code blockCacheLeafIndexHitCount}, {@code
   * blockCacheBloomChunkHitCount}, {@code blockCacheMetaHitCount}).
   */
  static String category(BlockCategory category) {
    return switch (category) {
      case DATA -> "Data";
      case INDEX -> "LeafIndex";
      case BLOOM -> "BloomChunk";
      case META -> "Meta";
    };
  }
}
