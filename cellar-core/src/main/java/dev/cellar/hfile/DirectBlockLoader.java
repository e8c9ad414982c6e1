package dev.cellar.hfile;

import dev.cellar.memory.BufSource;
import java.io.IOException;

/**
 * The loader at the bottom of every reader's chain: each call reads the block from the file ({@link
 * BlockReader}). A cache in front of it may also ask for the packed form of a compressed file's
 * blocks ({@link #reader()}). Thread-safe, as the block reader.
 */
public final class DirectBlockLoader implements BlockLoader {

  private final BlockReader reader;

  DirectBlockLoader(BlockReader reader) {
    this.reader = reader;
  }

  /** The block reader behind this loader. */
  public BlockReader reader() {
    return reader;
  }

  @Override
  public HFileBlock loadBlock(
      long offset, int onDiskSizeWithHeader, BlockType expectedType, boolean cacheBlock)
      throws IOException {
    return reader.readBlock(offset, onDiskSizeWithHeader, expectedType);
  }

  /**
   * Reads into {@code memory}; a block no cache will keep ({@code cacheBlock} false), with no
   * memory given, into the allocator's reusable buffers, whose block object serves the buffer's
   * next such read.
   */
  @Override
  public HFileBlock loadBlock(
      long offset,
      int onDiskSizeWithHeader,
      BlockType expectedType,
      boolean cacheBlock,
      BufSource memory)
      throws IOException {
    return reader.readBlock(
        offset,
        onDiskSizeWithHeader,
        expectedType,
        memory != null || cacheBlock ? memory : reader.reusableMemory());
  }
}
