package dev.cellar.hfile;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.Encodings;
import dev.cellar.hfile.encoding.MalformedBlockException;
import dev.cellar.hfile.encoding.RowCellSink;
import dev.cellar.hfile.encoding.SeekIndex;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A cursor over an HFile's cells in order. It holds at most one data block (one reference), and the
 * current cell is a view into that block's memory, valid until the cursor moves to another block or
 * closes.
 *
 * <p>Seeks walk the block index through the reader's {@link BlockLoader}, and note the index key of
 * the block after the one they land in, so that a {@link #reseekTo} whose key sorts before it stays
 * in the current block without walking the index again; {@link #next()} moves to the following data
 * block by file offset, skipping the inline index and bloom blocks between them; {@link
 * #seekBefore} steps back through the data blocks' previous-block offsets.
 *
 * <p>In-block seeks binary-search the block's {@link SeekIndex} when the block object has one; the
 * third seek into a block object without one builds it for every reader of that object (see {@link
 * SeekIndexSlot}). A block the cache left out, read for this scanner alone, takes its index from
 * the file instead, which keeps a sparse one from the block's second such seek on (see {@link
 * LeftOutSeekIndexes}); a cached block sought with that one meanwhile builds its own at its eighth
 * seek.
 *
 * <p>Not thread-safe: one scanner per thread.
 */
public final class HFileScanner implements AutoCloseable {

  /** {@link #seekTo(Cell)}: the key sorts before the file's first cell; nothing is current. */
  public static final int BEFORE_FILE = -1;

  /** {@link #seekTo(Cell)}: positioned on the cell equal to the key. */
  public static final int EXACT = 0;

  /** {@link #seekTo(Cell)}: positioned on the last cell before the key. */
  public static final int BEFORE_KEY = 1;

  /**
   * {@link #seekTo(Cell)}: the key falls between two blocks (an index key is shorter than the
   * block's first key); positioned on the first cell after the key.
   */
  public static final int AFTER_KEY = -2;

  private final HFileReader reader;
  private final boolean cacheBlocks;
  private final BlockSeeker seeker;
  private final BlockIndexReader.BlockPointer pointer = new BlockIndexReader.BlockPointer();
  private HFileBlock block;

  /**
   * Whether the seeker was given the current block's own seek index, or for a block left out, the
   * file's; a cached block sought with the file's sparse one still builds its own.
   */
  private boolean indexed;

  /** Whether the seeker was given the file's sparse index of the current block. */
  private boolean sparselyIndexed;

  private boolean valid;

  HFileScanner(HFileReader reader, boolean cacheBlocks) {
    this.reader = reader;
    this.cacheBlocks = cacheBlocks;
    this.seeker = Encodings.newSeeker(reader.encoding(), reader.encodingContext());
  }

  /** True when the scanner is positioned on a cell. */
  public boolean isValid() {
    return valid;
  }

  /** The current cell: a view valid until the scanner moves off its block. */
  public Cell current() {
    if (!valid) {
      throw new IllegalStateException("the scanner is not positioned on a cell");
    }
    return seeker.current();
  }

  /**
   * The data block the current cell lies in (no reference added: retain its buffer to keep the
   * cell's memory past the cursor's next move), or null when not positioned.
   */
  public HFileBlock currentBlock() {
    return valid ? block : null;
  }

  /**
   * True if the cells this scanner returns are views whose every byte lies in the current block
   * (unencoded blocks), so retaining the block keeps the cell readable; false for delta encodings,
   * whose cells rebuild their key in a scratch buffer the next move overwrites.
   */
  public boolean cellsLieInBlock() {
    return Encodings.cellsLieInBlock(reader.encoding());
  }

  /** Positions on the file's first cell; false if the file is empty. */
  public boolean seekTo() throws IOException {
    long first = reader.trailer().firstDataBlockOffset();
    if (first < 0) {
      clear();
      return false;
    }
    useBlockFromStart(load(first, -1));
    valid = seeker.isValid();
    return valid;
  }

  /**
   * Positions on the last cell not after {@code key}.
   *
   * @return {@link #EXACT}, {@link #BEFORE_KEY}, {@link #AFTER_KEY} or {@link #BEFORE_FILE}
   */
  public int seekTo(Cell key) throws IOException {
    return seekTo(key, false);
  }

  /**
   * Positions to read from the first cell not before {@code key}: as {@link #seekTo(Cell)}, except
   * that where the block's seek index shows which cell starts the key's row (see {@link
   * BlockSeeker#seekToRowStart}), it positions on that cell, the first after the key, and returns
   * {@link #AFTER_KEY}, without walking the cells before it. For callers that move on to the next
   * cell after a {@link #BEFORE_KEY}, as a point read does.
   */
  public int seekToOrAfter(Cell key) throws IOException {
    return seekTo(key, true);
  }

  private int seekTo(Cell key, boolean orAfter) throws IOException {
    if (!reader.dataIndex().locate(key, reader.blockLoader(), pointer)) {
      clear();
      return BEFORE_FILE;
    }
    if (block == null || block.offset() != pointer.offset) {
      useBlock(load(pointer.offset, pointer.onDiskSize));
    }
    useSeekIndex();
    if (orAfter && seekToRowStart(key)) {
      valid = true;
      return AFTER_KEY;
    }
    int result = seek(key, false);
    valid = seeker.isValid();
    return result;
  }

  private boolean seekToRowStart(Cell key) throws CorruptHFileException {
    try {
      return seeker.seekToRowStart(key);
    } catch (RuntimeException e) {
      throw corrupt(e);
    }
  }

  /**
   * Like {@link #seekTo(Cell)}, for a key not before the current cell. When the key also sorts
   * before the index key of the block after the current one (HBase's {@code nextIndexedKey}, noted
   * by the index walk that found the current block), the target lies in the current block: the seek
   * continues forward from the current cell without touching the index or the cache. Otherwise, and
   * when the current block was reached by {@link #next()} or {@link #seekBefore} stepping back, it
   * is a {@link #seekTo(Cell)}.
   */
  public int reseekTo(Cell key) throws IOException {
    if (valid
        && block.offset() == pointer.offset
        && inCurrentBlock(key)
        && CellComparator.compareKeyIgnoringSequenceId(key, seeker.current()) >= 0) {
      int result = seek(key, false);
      valid = seeker.isValid();
      return result;
    }
    return seekTo(key);
  }

  private boolean inCurrentBlock(Cell key) throws CorruptHFileException {
    try {
      return pointer.precedesNextBlock(key);
    } catch (IllegalArgumentException e) {
      throw new CorruptHFileException(reader.name(), -1, "malformed key in the data index", e);
    }
  }

  /**
   * Positions on the last cell strictly before {@code key}.
   *
   * @return false if no cell of the file is before {@code key}
   */
  public boolean seekBefore(Cell key) throws IOException {
    if (!reader.dataIndex().locate(key, reader.blockLoader(), pointer)) {
      clear();
      return false;
    }
    if (block == null || block.offset() != pointer.offset) {
      useBlock(load(pointer.offset, pointer.onDiskSize));
    }
    useSeekIndex();
    if (seek(key, true) != AFTER_KEY) {
      valid = seeker.isValid();
      return valid;
    }
    long previous = block.prevBlockOffset();
    if (previous < 0) {
      clear();
      return false;
    }
    useBlock(load(previous, -1));
    useSeekIndex();
    if (seek(key, true) == AFTER_KEY) {
      throw new CorruptHFileException(
          reader.name(),
          block.offset(),
          "the data block before the " + "one a key's index entry points to",
          "cells before the key",
          "none");
    }
    valid = seeker.isValid();
    return valid;
  }

  /**
   * Gives the seeker the current block's seek index, building it first if this seek is the one to
   * (see {@link SeekIndexSlot}). A block that breaks its encoding is left without one: the seek
   * then walks it and reports the malformed cell if it reaches it.
   */
  private void useSeekIndex() {
    if (indexed) {
      return;
    }
    if (block.leftOut()) {
      useLeftOutSeekIndex();
      return;
    }
    SeekIndex index = block.seekIndex();
    int buildingSeek =
        sparselyIndexed ? SeekIndexSlot.BUILDING_SEEK_AFTER_SPARSE : SeekIndexSlot.BUILDING_SEEK;
    if (index == null && block.claimSeekIndexBuild(buildingSeek)) {
      try {
        index = seeker.indexBlock();
      } catch (MalformedBlockException e) {
        index = null;
      } finally {
        block.publishSeekIndex(index);
      }
    }
    if (index != null) {
      seeker.useIndex(index);
      indexed = true;
    }
  }

  /**
   * Builds a sparse index of the current block, which no cache keeps, at the file's second seek
   * into it without one, seeks with it and keeps it with the file's when their heap budget has room
   * (see {@link LeftOutSeekIndexes}).
   */
  private void useLeftOutSeekIndex() {
    LeftOutSeekIndexes indexes = reader.leftOutSeekIndexes();
    if (!indexes.secondSeek(block.offset())) {
      return;
    }
    SeekIndex index;
    try {
      index = seeker.indexBlockSparsely();
    } catch (MalformedBlockException e) {
      return;
    }
    if (index != null) {
      indexes.put(block.offset(), index);
      seeker.useIndex(index);
      indexed = true;
    }
  }

  private int seek(Cell key, boolean before) throws IOException {
    try {
      return seeker.seekToKeyInBlock(key, before);
    } catch (RuntimeException e) {
      throw corrupt(e);
    }
  }

  /**
   * Moves to the next cell.
   *
   * @return false at the end of the file (the scanner is then not positioned)
   */
  public boolean next() throws IOException {
    if (!valid) {
      return false;
    }
    try {
      if (seeker.next()) {
        return true;
      }
    } catch (RuntimeException e) {
      throw corrupt(e);
    }
    long offset = block.offset() + block.onDiskSizeWithHeader();
    int size = block.nextBlockOnDiskSize();
    long last = reader.trailer().lastDataBlockOffset();
    while (offset <= last) {
      HFileBlock next = load(offset, size, null);
      if (next.type().isData()) {
        useBlockFromStart(next);
        valid = seeker.isValid();
        return valid;
      }
      offset += next.onDiskSizeWithHeader();
      size = next.nextBlockOnDiskSize();
      next.release();
    }
    clear();
    return false;
  }

  /**
   * Hands {@code sink} the newest put of each column of the row of {@code rowLength} bytes at
   * {@code rowOffset} of {@code row}, from the current cell (a cell of that row) on, block after
   * block, as {@link BlockSeeker#collectLatestPuts} does within one: the sink keeps each block a
   * cell it takes lies in. Leaves the scanner on the first cell after the row (not positioned at
   * the file's end), or for {@link BlockSeeker#GAVE_UP} on the cell that stopped it.
   *
   * @return {@link BlockSeeker#ROW_ENDED}, {@link BlockSeeker#GAVE_UP} or, for an encoding whose
   *     cells do not lie in the block, {@link BlockSeeker#NOT_COLLECTED} with nothing moved
   */
  public int collectLatestPuts(
      MemorySegment row,
      long rowOffset,
      int rowLength,
      long minTimestamp,
      long maxTimestamp,
      RowCellSink sink)
      throws IOException {
    if (!valid) {
      throw new IllegalStateException("the scanner is not positioned on a cell");
    }
    while (true) {
      int result;
      try {
        result =
            seeker.collectLatestPuts(row, rowOffset, rowLength, minTimestamp, maxTimestamp, sink);
      } catch (MalformedBlockException e) {
        throw corrupt(e);
      }
      if (result != BlockSeeker.BLOCK_ENDED || !next()) {
        return result == BlockSeeker.BLOCK_ENDED ? BlockSeeker.ROW_ENDED : result;
      }
    }
  }

  private HFileBlock load(long offset, int onDiskSize) throws IOException {
    return load(offset, onDiskSize, BlockType.DATA);
  }

  private HFileBlock load(long offset, int onDiskSize, BlockType expected) throws IOException {
    return reader.blockLoader().loadBlock(offset, onDiskSize, expected, cacheBlocks);
  }

  /** Makes {@code next} the current block, positioned on its first cell. */
  private void useBlockFromStart(HFileBlock next) throws IOException {
    useBlock(next);
    try {
      seeker.rewind();
    } catch (RuntimeException e) {
      CorruptHFileException corrupt = corrupt(e);
      release();
      throw corrupt;
    }
  }

  /**
   * Makes {@code next} the current block, to seek in (its first cell is not read yet), with its
   * seek index when it has one, else with the sparse one its file keeps from when the cache left it
   * out, if any (a block just taken into the cache is sought so until its own is built).
   */
  private void useBlock(HFileBlock next) throws IOException {
    release();
    block = next;
    SeekIndex own = next.leftOut() ? null : next.seekIndex();
    SeekIndex index = own != null ? own : reader.leftOutSeekIndexes().find(next.offset());
    indexed = own != null || (index != null && next.leftOut());
    sparselyIndexed = own == null && index != null;
    try {
      next.setInto(seeker, index);
    } catch (RuntimeException e) {
      CorruptHFileException corrupt = corrupt(e);
      release();
      throw corrupt;
    }
  }

  /** The exception to throw for a malformed block; the scanner is left unpositioned. */
  private CorruptHFileException corrupt(RuntimeException e) {
    valid = false;
    long offset = block == null ? -1 : block.offset();
    return new CorruptHFileException(reader.name(), offset, "malformed data block", e);
  }

  private void clear() {
    release();
    valid = false;
  }

  private void release() {
    if (block != null) {
      block.release();
      block = null;
    }
  }

  /** Releases the current block; the scanner may be positioned again afterwards. */
  @Override
  public void close() {
    clear();
  }
}
