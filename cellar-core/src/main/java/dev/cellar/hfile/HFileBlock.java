package dev.cellar.hfile;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.Encodings;
import dev.cellar.hfile.encoding.SeekIndex;
import dev.cellar.memory.Buf;
import dev.cellar.memory.SlotAttachment;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;

/**
 * One unpacked HFile block: its header followed by its uncompressed payload, with no checksum
 * bytes, in a {@link Buf} this object holds one reference to. This is the form blocks are cached
 * and read in.
 *
 * <p>Ownership: the creator hands its reference to the block; whoever holds the block last calls
 * {@link #release()}. {@link #retain()} adds a reference for another holder. Thread-safe for reads:
 * the memory is never written after the block is built.
 *
 * <p>Memory: one object per block read, besides its buffer and a segment from its payload on that
 * seekers read (a payload {@link Buf} is made only when asked, by index and bloom readers). A block
 * read into a reusable pooled slot ({@link dev.cellar.memory.RecycledHeapArrays#reusableSource()})
 * is kept with the slot and reset for the next block read there ({@link #over}), its segment with
 * it: such a read makes no object at all. Nothing may touch such a block after its last release
 * (its fields may be another block's by then), which every holder obeys; a cache that keeps one
 * looks it up by its memory's generation ({@link Buf#tryRetain(int)}), so that a lookup racing its
 * eviction cannot take the slot's next block for it. The header is not kept as a record but read
 * from the block's memory when asked; the block is its own {@link SeekIndexSlot}: a data block
 * object carries the {@link SeekIndex} its readers build for it, so a cached block is indexed once
 * and shared with its index, whose memory is recycled when the block's memory is freed. {@link
 * #heapSize()} counts the most such an index may take from the start ({@link
 * Encodings#maxSeekIndexHeapSize}), so a cache's accounting of the block never changes while it
 * holds it.
 */
public final class HFileBlock extends SeekIndexSlot implements Cacheable, SlotAttachment {

  private static final HFileBlockDeserializer DESERIALIZER = new HFileBlockDeserializer();

  /** Heap bytes of the block object, its buffer views and their segments, for cache sizing. */
  private static final long OBJECT_OVERHEAD = 184;

  private BlockType type;
  private long offset;

  /**
   * The header and payload, and after them, in a block read from an uncompressed file, what was
   * read along (its checksums, the next block's header): one reference for the block, one view, so
   * that a block read costs no second view. The header's fields are read from here.
   */
  private final Buf memory;

  private int nextBlockOnDiskSize;
  private int onDiskSizeWithHeader;
  private int payloadSize;

  /**
   * The memory from the payload's first byte to its end (the payload, then what was read along),
   * made once for the seekers, who read the first {@link #payloadSize} bytes on every seek; null
   * when the memory spans several segments (such a block is read through {@link #payload()}).
   */
  private final MemorySegment payloadTail;

  /** Whether this object is kept with its memory's pooled slot, reset for each read there. */
  private boolean keptWithSlot;

  /**
   * Whether the block was read for its reader alone, no cache keeping it ({@link #markLeftOut}):
   * its seek index is then kept by the file ({@link LeftOutSeekIndexes}), not by this object.
   */
  private boolean leftOut;

  /**
   * The payload as a buffer view, made at the first call (a racing second call makes an equal view;
   * either may stay).
   */
  private Buf payload;

  /**
   * The header and payload exactly (what {@link #buf()} shows): {@link #memory} itself when it
   * holds nothing more, else a view made at the first call, which caches and readers that pin the
   * block make (a racing second call makes an equal view; either may stay).
   */
  private Buf exact;

  /**
   * An index block's validated entries, parsed by the first reader and shared by the later ones (a
   * racing second parse makes an equal object; either may win). Views of this block's memory, so
   * valid while a reference to the block is held, as the block itself.
   */
  private volatile BlockIndexReader.NonRootEntries indexEntries;

  /**
   * A block over {@code buf} holding exactly its header and payload, as a cache stores it.
   *
   * @param header the block's header as read (sizes describe the on-disk form), which also lies at
   *     the start of {@code buf}
   * @param offset the block's file offset
   * @param buf header plus uncompressed payload; the block takes over the caller's reference
   * @param nextBlockOnDiskSize the following block's on-disk size if it was read along, else -1
   */
  public HFileBlock(BlockHeader header, long offset, Buf buf, int nextBlockOnDiskSize) {
    this(
        header.type(),
        offset,
        exactly(header.uncompressedSizeWithoutHeader(), offset, buf),
        header.uncompressedSizeWithoutHeader(),
        nextBlockOnDiskSize);
  }

  /**
   * A block over the start of {@code memory}: its header, checked to be of type {@code type}, then
   * {@code payloadSize} bytes of payload, then anything; the block takes over the caller's
   * reference.
   */
  HFileBlock(BlockType type, long offset, Buf memory, int payloadSize, int nextBlockOnDiskSize) {
    this.memory = memory;
    checkFits(offset, payloadSize);
    this.payloadTail = memory.isSingleSegment() ? memory.segment().asSlice(BlockHeader.SIZE) : null;
    set(type, offset, payloadSize, nextBlockOnDiskSize);
  }

  /**
   * The block at the start of {@code memory}, as {@link #HFileBlock(BlockType, long, Buf, int,
   * int)}: the object kept with the memory's reusable slot, reset for this block, when the slot has
   * one; else a new object, kept with the slot when the memory is a reusable slot's.
   */
  static HFileBlock over(
      BlockType type, long offset, Buf memory, int payloadSize, int nextBlockOnDiskSize) {
    if (memory.slotAttachment() instanceof HFileBlock kept) {
      kept.checkFits(offset, payloadSize);
      kept.resetSlot();
      kept.set(type, offset, payloadSize, nextBlockOnDiskSize);
      return kept;
    }
    HFileBlock block = new HFileBlock(type, offset, memory, payloadSize, nextBlockOnDiskSize);
    block.keptWithSlot = memory.attachToSlot(block);
    return block;
  }

  private void checkFits(long offset, int payloadSize) {
    if (memory.capacity() < BlockHeader.SIZE + payloadSize
        || BlockHeader.uncompressedSizeWithoutHeader(memory, 0) != payloadSize) {
      throw new IllegalArgumentException(
          "block at "
              + offset
              + " needs a header of a "
              + payloadSize
              + "-byte payload and the payload, buffer has "
              + memory.capacity()
              + " bytes");
    }
  }

  private void set(BlockType type, long offset, int payloadSize, int nextBlockOnDiskSize) {
    this.type = type;
    this.offset = offset;
    this.nextBlockOnDiskSize = nextBlockOnDiskSize;
    this.onDiskSizeWithHeader = BlockHeader.onDiskSizeWithHeader(memory, 0);
    this.payloadSize = payloadSize;
    this.payload = null;
    this.exact = memory.capacity() == BlockHeader.SIZE + payloadSize ? memory : null;
    this.indexEntries = null;
    this.leftOut = false;
  }

  /** Marks the block as read for its reader alone: no cache holds it or its object. */
  void markLeftOut() {
    leftOut = true;
  }

  /** Whether {@link #markLeftOut} marked the block. */
  boolean leftOut() {
    return leftOut;
  }

  private static Buf exactly(int payloadSize, long offset, Buf buf) {
    int expected = BlockHeader.SIZE + payloadSize;
    if (buf.capacity() != expected) {
      throw new IllegalArgumentException(
          "block at "
              + offset
              + " needs "
              + expected
              + " bytes of header and payload, buffer has "
              + buf.capacity());
    }
    return buf;
  }

  /** The on-disk size of the block that follows this one, or -1 if it was not read along. */
  public int nextBlockOnDiskSize() {
    return nextBlockOnDiskSize;
  }

  public BlockType type() {
    return type;
  }

  /** The block's header, read from its memory (a new record per call). */
  public BlockHeader header() {
    return BlockHeader.of(memory, 0, type);
  }

  /** The offset of the previous block of the same type, or -1 (the header's field). */
  public long prevBlockOffset() {
    return memory.getLong(BlockHeader.PREV_BLOCK_OFFSET_OFFSET);
  }

  /** The block's file offset. */
  public long offset() {
    return offset;
  }

  /** The block's size on disk, header and checksums included (what an index entry records). */
  public int onDiskSizeWithHeader() {
    return onDiskSizeWithHeader;
  }

  /** Uncompressed payload bytes. */
  public int payloadSize() {
    return payloadSize;
  }

  /** The header and payload; a view valid while the caller's reference is held. */
  @Override
  public Buf buf() {
    Buf view = exact;
    if (view == null) {
      view = memory.slice(0, BlockHeader.SIZE + payloadSize());
      exact = view;
    }
    return view;
  }

  /** The buffer the block was built over: its header and payload, then what was read along. */
  @Override
  public Buf backing() {
    return memory;
  }

  @Override
  public int length() {
    return BlockHeader.SIZE + payloadSize();
  }

  /** Heap bytes of the block, with room for the largest seek index it may be given. */
  @Override
  public long heapSize() {
    return OBJECT_OVERHEAD + BlockHeader.SIZE + payloadSize() + seekIndexReserve();
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
      return Encodings.maxSeekIndexHeapSize(DataBlockEncoding.NONE, size);
    }
    if (type() != BlockType.ENCODED_DATA || size < DataBlockEncoding.ID_SIZE) {
      return 0;
    }
    DataBlockEncoding encoding = DataBlockEncoding.ofIdOrNull(memory.getShort(BlockHeader.SIZE));
    return encoding == null ? 0 : Encodings.maxSeekIndexHeapSize(encoding, size);
  }

  /** The seek index built for this block object, or null if none was (yet). */
  SeekIndex seekIndex() {
    return get();
  }

  /**
   * Records a seek into this block; returns true if it is seek {@code buildingSeek} (see {@link
   * SeekIndexSlot}) and the caller is to build the block's seek index now and {@link
   * #publishSeekIndex} it.
   */
  boolean claimSeekIndexBuild(int buildingSeek) {
    return claim(buildingSeek);
  }

  /** Publishes the index built after {@link #claimSeekIndexBuild(int)}; null if none could be. */
  void publishSeekIndex(SeekIndex index) {
    publish(index);
  }

  @Override
  public BlockCategory category() {
    return categoryOf(type);
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
   * read-ahead size), with a seek index slot of its own: each object recycles its index at its own
   * last release.
   */
  @Override
  public HFileBlock withBuf(Buf other) {
    return new HFileBlock(
        type, offset, exactly(payloadSize(), offset, other), payloadSize(), nextBlockOnDiskSize);
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
    Buf view = payload;
    if (view == null) {
      view = memory.slice(BlockHeader.SIZE, payloadSize);
      payload = view;
    }
    return view;
  }

  /** Sets {@code seeker} on this block's payload, through its segment when it has one. */
  public void setInto(BlockSeeker seeker) {
    if (payloadTail != null) {
      seeker.setBlock(payloadTail, payloadSize);
    } else {
      seeker.setBlock(payload());
    }
  }

  /**
   * Sets {@code seeker} on this block's payload with {@code index}, this block's seek index ({@link
   * BlockSeeker#setIndexedBlock}); as {@link #setInto(BlockSeeker)} when it is null.
   */
  void setInto(BlockSeeker seeker, SeekIndex index) {
    if (index == null) {
      setInto(seeker);
    } else if (payloadTail != null) {
      seeker.setIndexedBlock(payloadTail, payloadSize, index);
    } else {
      seeker.setBlock(payload());
      seeker.useIndex(index);
    }
  }

  /**
   * A buffer that counts in this block's references, for a holder of views of its cells to pin:
   * valid while the caller's reference is held.
   */
  public Buf pinnable() {
    return memory;
  }

  BlockIndexReader.NonRootEntries indexEntries() {
    return indexEntries;
  }

  void indexEntries(BlockIndexReader.NonRootEntries entries) {
    indexEntries = entries;
  }

  @Override
  public int refCnt() {
    return memory.refCnt();
  }

  /** Recycles the seek index: the block's memory was freed by a release not made through it. */
  @Override
  public void memoryFreed() {
    recycleOnce();
  }

  /**
   * Recycles the seek index of a block kept with its slot, whose memory was freed: before the slot
   * is taken again and this object reset for the next block.
   */
  @Override
  public void slotFreed() {
    recycleOnce();
  }

  @Override
  public boolean tryRetain() {
    return memory.tryRetain();
  }

  /** Adds a reference; returns this block. */
  @Override
  public HFileBlock retain() {
    memory.retain();
    return this;
  }

  /**
   * Drops a reference; the last one frees the memory and recycles the block's seek index (no reader
   * holds the block, so none reads the index). Returns true if it did.
   */
  @Override
  public boolean release() {
    boolean kept = keptWithSlot;
    if (!memory.release()) {
      return false;
    }
    if (!kept) {
      recycleOnce();
    }
    return true;
  }

  @Override
  public String toString() {
    return type()
        + "@"
        + offset
        + "[onDisk="
        + onDiskSizeWithHeader()
        + ", payload="
        + payloadSize()
        + "]";
  }
}
