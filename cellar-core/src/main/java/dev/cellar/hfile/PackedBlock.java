package dev.cellar.hfile;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.memory.Buf;

/**
 * A block of a compressed file as it is on disk, less its checksums: the header followed by the
 * compressed payload, in a {@link Buf} this object holds one reference to. This is the form data
 * blocks are cached in with {@code hbase.block.data.cachecompressed} (HBase's "packed" blocks): the
 * cache holds the compressed bytes, several times fewer than the unpacked ones, and every read
 * decompresses a copy ({@link BlockReader#unpack(PackedBlock)}). The checksums were verified when
 * the block was read from the file.
 *
 * <p>Layout of the buffer: the {@link BlockHeader} ({@value BlockHeader#SIZE} bytes) then {@code
 * onDiskDataSizeWithHeader - }{@value BlockHeader#SIZE} bytes of compressed payload.
 *
 * <p>Ownership as {@link HFileBlock}: the creator hands its reference to the block, the last holder
 * releases it. Thread-safe for reads.
 */
public final class PackedBlock implements Cacheable {

  private static final PackedBlockDeserializer DESERIALIZER = new PackedBlockDeserializer();
  private static final long OBJECT_OVERHEAD = 128;

  private final BlockHeader header;
  private final long offset;
  private final Buf buf;
  private final int nextBlockOnDiskSize;

  /**
   * @param buf header plus compressed payload, exactly {@code header.onDiskDataSizeWithHeader()}
   *     bytes; the block takes over the caller's reference
   */
  PackedBlock(BlockHeader header, long offset, Buf buf, int nextBlockOnDiskSize) {
    if (buf.capacity() != header.onDiskDataSizeWithHeader()) {
      throw new IllegalArgumentException(
          "packed block at "
              + offset
              + " needs "
              + header.onDiskDataSizeWithHeader()
              + " bytes, buffer has "
              + buf.capacity());
    }
    this.header = header;
    this.offset = offset;
    this.buf = buf;
    this.nextBlockOnDiskSize = nextBlockOnDiskSize;
  }

  public BlockHeader header() {
    return header;
  }

  public BlockType type() {
    return header.type();
  }

  public long offset() {
    return offset;
  }

  public int nextBlockOnDiskSize() {
    return nextBlockOnDiskSize;
  }

  @Override
  public Buf buf() {
    return buf;
  }

  @Override
  public long heapSize() {
    return OBJECT_OVERHEAD + buf.capacity();
  }

  @Override
  public BlockCategory category() {
    return HFileBlock.categoryOf(header.type());
  }

  @Override
  public PackedBlock withBuf(Buf other) {
    return new PackedBlock(header, offset, other, nextBlockOnDiskSize);
  }

  @Override
  public CacheableDeserializer deserializer() {
    return DESERIALIZER;
  }

  @Override
  public void writeMetadata(Buf dst, int index) {
    dst.putLong(index, offset);
    dst.putInt(index + Long.BYTES, nextBlockOnDiskSize);
  }

  @Override
  public String toString() {
    return type()
        + "@"
        + offset
        + "[packed "
        + buf.capacity()
        + ", unpacked "
        + (BlockHeader.SIZE + header.uncompressedSizeWithoutHeader())
        + "]";
  }
}
