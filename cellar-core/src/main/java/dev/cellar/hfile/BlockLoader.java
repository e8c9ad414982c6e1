package dev.cellar.hfile;

import dev.cellar.memory.BufSource;
import java.io.IOException;

/**
 * The only way an HFile reader obtains a block: index walks, bloom probes and scanners all call
 * this, so a block cache plugs in at exactly this point.
 */
@FunctionalInterface
public interface BlockLoader {

  /**
   * The unpacked block at {@code offset}, holding one reference the caller must release.
   *
   * @param onDiskSizeWithHeader the size recorded by the index entry, or -1 if unknown
   * @param expectedType the type the caller expects, or null for any
   * @param cacheBlock whether the caller wants the block kept in a cache (index and bloom blocks
   *     always are)
   */
  HFileBlock loadBlock(
      long offset, int onDiskSizeWithHeader, BlockType expectedType, boolean cacheBlock)
      throws IOException;

  /**
   * As {@link #loadBlock(long, int, BlockType, boolean)}, reading the block into {@code memory}
   * where this loader reads from a file and the block needs no decompression (a cache about to keep
   * it offers its own memory); other loaders ignore it.
   */
  default HFileBlock loadBlock(
      long offset,
      int onDiskSizeWithHeader,
      BlockType expectedType,
      boolean cacheBlock,
      BufSource memory)
      throws IOException {
    return loadBlock(offset, onDiskSizeWithHeader, expectedType, cacheBlock);
  }
}
