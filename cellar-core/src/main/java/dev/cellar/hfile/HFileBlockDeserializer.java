package dev.cellar.hfile;

import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.memory.Buf;

/**
 * Rebuilds an {@link HFileBlock} stored by a byte-level cache. The content is the block's header
 * and uncompressed payload, as the block holds them; the {@value #METADATA_LENGTH} metadata bytes
 * are what the header does not say:
 *
 * <pre>
 * offset  size  field
 * 0       8     the block's file offset (big-endian)
 * 8       4     the next block's on-disk size, or -1 if it was not read along
 * </pre>
 *
 * Stateless; found by {@link java.util.ServiceLoader}.
 */
public final class HFileBlockDeserializer implements CacheableDeserializer {

  public static final String NAME = "hfile-block";
  static final int METADATA_LENGTH = 12;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int metadataLength() {
    return METADATA_LENGTH;
  }

  static void writeMetadata(HFileBlock block, Buf dst, int index) {
    dst.putLong(index, block.offset());
    dst.putInt(index + 8, block.nextBlockOnDiskSize());
  }

  @Override
  public HFileBlock deserialize(Buf content, Buf metadata, int metadataIndex)
      throws CorruptHFileException {
    long offset = metadata.getLong(metadataIndex);
    int nextBlockOnDiskSize = metadata.getInt(metadataIndex + 8);
    if (content.capacity() < BlockHeader.SIZE) {
      throw new CorruptHFileException(
          "block cache",
          offset,
          "cached block length",
          ">= " + BlockHeader.SIZE,
          content.capacity());
    }
    BlockHeader header = BlockHeader.read(content, 0, "block cache", offset);
    int expected = BlockHeader.SIZE + header.uncompressedSizeWithoutHeader();
    if (content.capacity() != expected) {
      throw new CorruptHFileException(
          "block cache", offset, "cached block length", expected, content.capacity());
    }
    return new HFileBlock(header, offset, content, nextBlockOnDiskSize);
  }
}
