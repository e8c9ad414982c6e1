package dev.cellar.hfile;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.memory.Buf;

/**
 * One unpacked HFile block: its header followed by its uncompressed payload, with no checksum
 * bytes, in a {@link Buf} this object holds one reference to. This is the form blocks are cached
 * and read in.
 *
 * <p>Ownership: the creator hands its reference to the block; whoever holds the block last calls
 * {@link #release()}. {@link #retain()} adds a reference for another holder. Thread-safe for
 * reads: the memory is never written after the block is built.
 */
public final class HFileBlock implements Cacheable {

  private static final HFileBlockDeserializer DESERIALIZER = new HFileBlockDeserializer();

  /** Heap bytes of the block object, its header record and its buffer view, for cache sizing. */
  private static final long OBJECT_OVERHEAD = 160;

  private final BlockHeader header;
  private final long offset;
  private final Buf buf;
  private final int nextBlockOnDiskSize;
  /** The payload view, made once: readers ask for it on every seek. */
  private final Buf payload;
  /**
   * An index block's validated entries, parsed by the first reader and shared by the later ones
   * (a racing second parse makes an equal object; either may win). Views of this block's memory,
   * so valid while a reference to the block is held, as the block itself.
   */
  private volatile BlockIndexReader.NonRootEntries indexEntries;

  /**
   * @param header the block's header as read (sizes describe the on-disk form)
   * @param offset the block's file offset
   * @param buf header plus uncompressed payload; the block takes over the caller's reference
   * @param nextBlockOnDiskSize the following block's on-disk size if it was read along, else -1
   */
  public HFileBlock(BlockHeader header, long offset, Buf buf, int nextBlockOnDiskSize) {
    int expected = BlockHeader.SIZE + header.uncompressedSizeWithoutHeader();
    if (buf.capacity() != expected) {
      throw new IllegalArgumentException("block at " + offset + " needs " + expected
          + " bytes of header and payload, buffer has " + buf.capacity());
    }
    this.header = header;
    this.offset = offset;
    this.buf = buf;
    this.nextBlockOnDiskSize = nextBlockOnDiskSize;
    this.payload = buf.slice(BlockHeader.SIZE, header.uncompressedSizeWithoutHeader());
  }

  /** The on-disk size of the block that follows this one, or -1 if it was not read along. */
  public int nextBlockOnDiskSize() {
    return nextBlockOnDiskSize;
  }

  public BlockType type() {
    return header.type();
  }

  public BlockHeader header() {
    return header;
  }

  /** The block's file offset. */
  public long offset() {
    return offset;
  }

  /** The block's size on disk, header and checksums included (what an index entry records). */
  public int onDiskSizeWithHeader() {
    return header.onDiskSizeWithHeader();
  }

  /** Uncompressed payload bytes. */
  public int payloadSize() {
    return header.uncompressedSizeWithoutHeader();
  }

  /** The header and payload; a view valid while the caller's reference is held. */
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
    return categoryOf(header.type());
  }

  /** The cache category blocks of {@code type} are accounted under. */
  public static BlockCategory categoryOf(BlockType type) {
    return switch (type.category()) {
      case DATA -> BlockCategory.DATA;
      case INDEX -> BlockCategory.INDEX;
      case BLOOM -> BlockCategory.BLOOM;
      case META -> BlockCategory.META;
    };
  }

  /** The same block over {@code other} (same header, offset and read-ahead size). */
  @Override
  public HFileBlock withBuf(Buf other) {
    return new HFileBlock(header, offset, other, nextBlockOnDiskSize);
  }

  @Override
  public CacheableDeserializer deserializer() {
    return DESERIALIZER;
  }

  @Override
  public void writeMetadata(Buf dst, int index) {
    HFileBlockDeserializer.writeMetadata(this, dst, index);
  }

  /** The payload (after the header); a view valid while the caller's reference is held. */
  public Buf payload() {
    return payload;
  }

  BlockIndexReader.NonRootEntries indexEntries() {
    return indexEntries;
  }

  void indexEntries(BlockIndexReader.NonRootEntries entries) {
    indexEntries = entries;
  }

  @Override
  public int refCnt() {
    return buf.refCnt();
  }

  /** Adds a reference; returns this block. */
  @Override
  public HFileBlock retain() {
    buf.retain();
    return this;
  }

  /** Drops a reference; the last one frees the memory. Returns true if it did. */
  @Override
  public boolean release() {
    return buf.release();
  }

  @Override
  public String toString() {
    return type() + "@" + offset + "[onDisk=" + onDiskSizeWithHeader() + ", payload=" + payloadSize()
        + "]";
  }
}
