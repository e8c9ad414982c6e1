package dev.cellar.bench;

import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.HFileBlock;
import dev.cellar.hfile.HFileReader;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;

/**
 * A {@link PeFile} holding exactly one data block, opened with Cellar's reader, with that block
 * loaded once into a pooled off-heap buffer: the block {@link BlockSeekBenchmark} seeks in.
 */
final class OneBlockFile implements AutoCloseable {

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private final HFileReader reader;
  private final HFileBlock block;

  OneBlockFile(PeFile file) throws IOException {
    reader = HFileReader.open(file.path(), allocator);
    if (reader.trailer().dataIndexCount() != 1) {
      throw new IllegalStateException(
          file + " has " + reader.trailer().dataIndexCount() + " data blocks, not one");
    }
    block =
        reader
            .blockLoader()
            .loadBlock(reader.trailer().firstDataBlockOffset(), -1, BlockType.DATA, false);
    if (!block.buf().isDirect() || !block.buf().isSingleSegment()) {
      throw new IllegalStateException(
          "the block is not in one pooled off-heap buffer: " + block.buf());
    }
  }

  HFileReader reader() {
    return reader;
  }

  /** The block's payload (after its header), valid until {@link #close()}. */
  Buf payload() {
    return block.payload();
  }

  @Override
  public void close() throws IOException {
    block.release();
    reader.close();
    allocator.close();
  }
}
