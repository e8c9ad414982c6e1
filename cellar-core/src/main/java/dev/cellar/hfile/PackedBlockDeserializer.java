package dev.cellar.hfile;

import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.memory.Buf;

/**
 * Rebuilds a {@link PackedBlock} stored by a byte-level cache. The content is the block's header
 * and compressed payload; the {@value #METADATA_LENGTH} metadata bytes are those of {@link
 * HFileBlockDeserializer} (file offset, next block's on-disk size). Stateless; found by {@link
 * java.util.ServiceLoader}.
 */
public final class PackedBlockDeserializer implements CacheableDeserializer {

  public static final String NAME = "hfile-packed-block";
  static final int METADATA_LENGTH = 12;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int metadataLength() {
    return METADATA_LENGTH;
  }

  @Override
  public PackedBlock deserialize(Buf content, Buf metadata, int metadataIndex)
      throws CorruptHFileException {
    long offset = metadata.getLong(metadataIndex);
    int nextBlockOnDiskSize = metadata.getInt(metadataIndex + Long.BYTES);
    if (content.capacity() < BlockHeader.SIZE) {
      throw new CorruptHFileException(
          "block cache",
          offset,
          "cached packed block length",
          ">= " + BlockHeader.SIZE,
          content.capacity());
    }
    BlockHeader header = BlockHeader.read(content, 0, "block cache", offset);
    if (content.capacity() != header.onDiskDataSizeWithHeader()) {
      throw new CorruptHFileException(
          "block cache",
          offset,
          "cached packed block length",
          header.onDiskDataSizeWithHeader(),
          content.capacity());
    }
    return new PackedBlock(header, offset, content, nextBlockOnDiskSize);
  }
}
