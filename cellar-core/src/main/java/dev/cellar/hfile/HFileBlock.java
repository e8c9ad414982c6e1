package dev.cellar.hfile;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.hfile.encoding.DataBlockEncoding;
import dev.cellar.hfile.encoding.SeekIndex;
import dev.cellar.memory.Buf;

/**
 * One unpacked HFile block: its header followed by its uncompressed payload, with no checksum
 * bytes, in a {@link Buf} this object holds one reference to. This is the form blocks are cached
 * and read in.
 *
 * <p>Ownership: the creator hands its reference to the block; whoever holds the block last calls
 * {@link #release()}. {@link #retain()} adds a reference for another holder. Thread-safe for
 * reads: the memory is never written after the block is built.
 *
 * <p>A data block object also carries the {@link SeekIndex} its readers build for it (see {@link
 * SeekIndexSlot}): a cached block is indexed once and shared with its index. {@link #heapSize()}
 * counts the most such an index may take from the start ({@link
 * DataBlockEncoding#maxSeekIndexHeapSize}), so a cache's accounting of the block never changes
 * while it holds it.
 */
public final class HFileBlock implements Cacheable {

  private static final HFileBlockDeserializer DESERIALIZER = new HFileBlockDeserializer();

  /**
   * Heap bytes of the block object, its header record, its buffer view and its seek index slot,
   * for cache sizing.
   */
  private static final long OBJECT_OVERHEAD = 184;

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
  private final SeekIndexSlot seekIndex;

  /**
   * @param header the block's header as read (sizes describe the on-disk form)
   * @param offset the block's file offset
   * @param buf header plus uncompressed payload; the block takes over the caller's reference
   * @param nextBlockOnDiskSize the following block's on-disk size if it was read along, else -1
   */
  public HFileBlock(BlockHeader header, long offset, Buf buf, int nextBlockOnDiskSize) {
    this(header, offset, buf, nextBlockOnDiskSize, new SeekIndexSlot());
  }

  private HFileBlock(BlockHeader header, long offset, Buf buf, int nextBlockOnDiskSize,
      SeekIndexSlot seekIndex) {
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
    this.seekIndex = seekIndex;
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

  /** Heap bytes of the block, with room for the largest seek index it may be given. */
  @Override
  public long heapSize() {
    return OBJECT_OVERHEAD + buf.capacity() + seekIndexReserve();
  }

  /**
   * The most heap a seek index of this block takes, by the encoding its payload names (none for
   * ROW_INDEX_V1 blocks, which keep their own row index), or, for a leaf or intermediate index
   * block, its validated entries with their row words; none for other blocks.
   */
  private long seekIndexReserve() {
    int size = payloadSize();
    if (type() == BlockType.LEAF_INDEX || type() == BlockType.INTERMEDIATE_INDEX) {
      return BlockIndexReader.NonRootEntries.maxHeapSize(size);
    }
    if (type() == BlockType.DATA) {
      return DataBlockEncoding.NONE.maxSeekIndexHeapSize(size);
    }
    if (type() != BlockType.ENCODED_DATA || size < DataBlockEncoding.ID_SIZE) {
      return 0;
    }
    short id = payload.getShort(0);
    for (DataBlockEncoding encoding : DataBlockEncoding.values()) {
      if (encoding.id() == id) {
        return encoding.maxSeekIndexHeapSize(size);
      }
    }
    return 0;
  }

  /** The seek index built for this block object, or null if none was (yet). */
  SeekIndex seekIndex() {
    return seekIndex.get();
  }

  /**
   * Records a seek into this block; returns true if the caller is to build the block's seek index
   * now and {@link #publishSeekIndex} it.
   */
  boolean claimSeekIndexBuild() {
    return seekIndex.claim();
  }

  /** Publishes the index built after {@link #claimSeekIndexBuild()}; null if none could be. */
  void publishSeekIndex(SeekIndex index) {
    seekIndex.publish(index);
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

  /**
   * The same block over {@code other}, which holds the same bytes (same header, offset and
   * read-ahead size), sharing this block's seek index slot: the index describes the bytes,
   * wherever they lie, and the seeks into either object count toward building it for both (the
   * L1's heap copy of a block just read is indexed by its first reader, not its second).
   */
  @Override
  public HFileBlock withBuf(Buf other) {
    return new HFileBlock(header, offset, other, nextBlockOnDiskSize, seekIndex);
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
