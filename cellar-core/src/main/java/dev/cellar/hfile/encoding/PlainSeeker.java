package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;

/**
 * What the NONE and ROW_INDEX_V1 seekers share: cells stored whole in {@link PlainCellFormat}, read
 * in place. Not thread-safe; one per reader thread, reused across blocks.
 *
 * <p>Design: the cursor is a payload offset, and {@link #current()} is a {@link KeyValueCell}
 * flyweight reset on every move, so iterating allocates nothing. Every cell's lengths are checked
 * against the end of the cells region before anything reads the cell. A seek asks the subclass for
 * a cell to start from (one that already qualifies), then walks forward comparing raw keys in place
 * (every {@value #STRIDE}th cell, then the cells of the stride that overshot) and stops before the
 * first cell that no longer qualifies; since a cell is located from its predecessor's end, "moving
 * back one" is just keeping the previous offset. A {@link CellOffsets} index, when given, is kept
 * for the subclass to start seeks from. A row's newest puts are collected by the cursor's own steps
 * ({@link #collectLatestPuts}), the cells taken handed over as the flyweight, which the taker
 * copies.
 */
abstract class PlainSeeker implements BlockSeeker {

  /**
   * A seek's walk compares one cell in this many, stepping over the others by their lengths, and
   * goes back to compare the cells of the last stride one by one: a walk over a block not yet
   * indexed (hundreds of small cells) costs a comparison per stride rather than per cell.
   */
  private static final int STRIDE = 8;

  private static final byte PUT_CODE = CellType.PUT.code();

  protected final PayloadReader in;
  private final EncodingContext context;
  private final KeyValueCell current = new KeyValueCell();
  private final KeyValueCell first = new KeyValueCell();
  private boolean blockSet;
  private boolean firstPending;
  private boolean firstKeyRead;
  private int knownStop;
  private int cellsStart;
  private int cellsEnd;
  private int position;
  private int positionEnd;
  private boolean valid;
  private int parsedLength;
  private int parsedKeyLength;
  private int parsedValueLength;
  private long parsedSequenceId;
  private CellOffsets offsets;

  PlainSeeker(EncodingContext context, DataBlockEncoding encoding) {
    this.context = context;
    this.in = new PayloadReader(encoding);
  }

  /**
   * Checks the payload's framing (read through {@link #in}, reset to the payload) and sets the
   * cells region with {@link #setCells}.
   */
  abstract void locateCells();

  /**
   * Returns the payload offset of a cell to start a seek from, one that {@link #qualifies}; or -1
   * if the block's first cell does not.
   */
  abstract int seekStart(Cell key, boolean seekBefore);

  final void setCells(int start, int end) {
    if (start >= end) {
      throw in.malformed(start, "at least one cell", "an empty cells region ending at " + end);
    }
    cellsStart = start;
    cellsEnd = end;
  }

  final int cellsStart() {
    return cellsStart;
  }

  final int cellsEnd() {
    return cellsEnd;
  }

  @Override
  public final void setBlock(MemorySegment segment, int length) {
    blockSet = false;
    valid = false;
    offsets = null;
    in.reset(segment, length);
    locateCells();
    firstPending = true;
    firstKeyRead = false;
    blockSet = true;
  }

  /**
   * Reads the first cell a {@link #setBlock} positioned on, if nothing moved since: a block set for
   * a seek is then never read at its start, which a seek index usually spares.
   */
  private void resolveFirst() {
    if (firstPending) {
      firstPending = false;
      positionAt(cellsStart);
    }
  }

  @Override
  public final void useIndex(SeekIndex index) {
    checkBlock();
    offsets = CellOffsets.of(index);
  }

  /** The seek index of the current block, or null. */
  final CellOffsets offsets() {
    return offsets;
  }

  @Override
  public final void rewind() {
    checkBlock();
    firstPending = false;
    positionAt(cellsStart);
  }

  @Override
  public final boolean next() {
    resolveFirst();
    if (!valid) {
      return false;
    }
    if (positionEnd >= cellsEnd) {
      valid = false;
      return false;
    }
    positionAt(positionEnd);
    return true;
  }

  @Override
  public final boolean isValid() {
    resolveFirst();
    return valid;
  }

  /** Whether the seeker holds a cell it read, unlike {@link #isValid()} never reading the first. */
  final boolean hasCurrent() {
    return valid;
  }

  @Override
  public final Cell current() {
    resolveFirst();
    if (!valid) {
      throw new IllegalStateException("the seeker is not positioned on a cell");
    }
    return current;
  }

  @Override
  public final Cell firstKeyInBlock() {
    checkBlock();
    if (!firstKeyRead) {
      cellEnd(cellsStart);
      try {
        first.reset(
            in.segment(), cellsStart, parsedLength, context.includesTags(), parsedSequenceId);
      } catch (IllegalArgumentException e) {
        throw in.malformed(cellsStart, "a well-formed KeyValue", e.getMessage());
      }
      firstKeyRead = true;
    }
    return first;
  }

  @Override
  public final int seekToKeyInBlock(Cell key, boolean seekBefore) {
    checkBlock();
    firstPending = false;
    knownStop = cellsEnd;
    int at = seekStart(key, seekBefore);
    if (at < 0) {
      positionAt(cellsStart);
      return KEY_BEFORE_BLOCK;
    }
    int comparison = compareAt(key, at);
    int end = skipCell(at);
    int stop = Math.min(knownStop, cellsEnd);
    while (end < stop) {
      int probe = end;
      int probeEnd = skipCell(probe);
      for (int steps = 1; steps < STRIDE && probeEnd < stop; steps++) {
        probe = probeEnd;
        probeEnd = skipCell(probe);
      }
      int probeComparison = compareAt(key, probe);
      if (qualifies(probeComparison, seekBefore)) {
        at = probe;
        end = probeEnd;
        comparison = probeComparison;
        continue;
      }
      while (end < probe) {
        int nextComparison = compareAt(key, end);
        if (!qualifies(nextComparison, seekBefore)) {
          break;
        }
        at = end;
        comparison = nextComparison;
        end = skipCell(end);
      }
      break;
    }
    positionAt(at);
    return comparison == 0 ? EXACT : BEFORE;
  }

  /**
   * Positions on the first cell after {@code key} when the seek index shows that this cell starts
   * the key's row: the index's first entry after the last one not after the key is marked as a
   * row's first cell and holds the key's row, so every cell before it has a smaller row and sorts
   * before the key. A Get's seek to the first key of its row so lands on the row without walking
   * the row before it. False, with nothing moved, when the index cannot show it (no index, the row
   * not in this block, or not at a marked entry).
   */
  @Override
  public final boolean seekToRowStart(Cell key) {
    checkBlock();
    if (offsets == null) {
      return false;
    }
    int entry = offsets.lastQualifying(key, false, 0, in.segment()) + 1;
    if (entry >= offsets.count() || !offsets.startsRow(entry)) {
      return false;
    }
    int at = offsets.offset(entry);
    MemorySegment payload = in.segment();
    long rowOffset = KeyValueLayout.rowOffset(KeyValueLayout.keyOffset(at));
    int rowLength = KeyValueLayout.rowLength(payload, KeyValueLayout.keyOffset(at));
    if (!Bytes.equals(
        key.segment(), key.rowOffset(), key.rowLength(), payload, rowOffset, rowLength)) {
      return false;
    }
    firstPending = false;
    positionAt(at);
    return true;
  }

  /**
   * The row collection in place (see {@link BlockSeeker#collectLatestPuts}): each step is the
   * cursor's own (lengths checked, the flyweight reset), then the row, type, timestamp and
   * qualifier are read from the flyweight's fields and the block, and the older versions of a
   * column taken are compared with it where it lies (in this block, or the sink's cell from an
   * earlier one).
   */
  @Override
  public final int collectLatestPuts(
      MemorySegment row,
      long rowOffset,
      int rowLength,
      long minTimestamp,
      long maxTimestamp,
      RowCellSink sink) {
    resolveFirst();
    if (!valid) {
      throw new IllegalStateException("the seeker is not positioned on a cell");
    }
    MemorySegment payload = in.segment();
    KeyValueCell cell = current;
    Cell taken = sink.lastTaken();
    MemorySegment takenSegment = taken == null ? null : taken.segment();
    long takenQualifier = taken == null ? 0 : taken.qualifierOffset();
    int takenLength = taken == null ? -1 : taken.qualifierLength();
    while (true) {
      if (!sameBytes(payload, cell.rowOffset(), cell.rowLength(), row, rowOffset, rowLength)) {
        return ROW_ENDED;
      }
      if (cell.typeByte() != PUT_CODE) {
        return GAVE_UP;
      }
      long qualifier = cell.qualifierOffset();
      int qualifierLength = cell.qualifierLength();
      if (!sameBytes(
          payload, qualifier, qualifierLength, takenSegment, takenQualifier, takenLength)) {
        long timestamp = cell.timestamp();
        if (timestamp >= maxTimestamp || timestamp < minTimestamp) {
          return GAVE_UP;
        }
        sink.take(cell);
        takenSegment = payload;
        takenQualifier = qualifier;
        takenLength = qualifierLength;
      }
      if (positionEnd >= cellsEnd) {
        return BLOCK_ENDED;
      }
      positionAt(positionEnd);
    }
  }

  /**
   * Whether two ranges hold the same bytes, their last bytes compared first: the rows and
   * qualifiers a row collection compares mostly differ at the end (row numbers, numbered columns),
   * if at all. A length of -1 (no range) matches nothing.
   */
  private static boolean sameBytes(
      MemorySegment left,
      long leftOffset,
      int leftLength,
      MemorySegment right,
      long rightOffset,
      int rightLength) {
    if (leftLength != rightLength) {
      return false;
    }
    return leftLength == 0
        || left.get(ByteLayouts.BYTE, leftOffset + leftLength - 1)
                == right.get(ByteLayouts.BYTE, rightOffset + rightLength - 1)
            && Bytes.equals(left, leftOffset, leftLength, right, rightOffset, rightLength);
  }

  /**
   * Notes, during {@link #seekStart}, the offset of a cell after the start that is known not to
   * qualify, so the walk from the start stops there without reading it.
   */
  final void knownStop(int offset) {
    knownStop = offset;
  }

  /** Returns the payload offset of the current cell, when {@link #isValid()}. */
  final int position() {
    return position;
  }

  /** Returns whether a cell comparing so with the key is one a seek may stop on. */
  static boolean qualifies(int keyComparedToCell, boolean seekBefore) {
    return seekBefore ? keyComparedToCell > 0 : keyComparedToCell >= 0;
  }

  /**
   * Compares {@code key} with the key of the cell at {@code at}, ignoring sequence ids; the cell
   * must have been checked by {@link #cellEnd}.
   */
  final int compareAt(Cell key, int at) {
    int keyLength = in.segment().get(ByteLayouts.INT_BE, at);
    try {
      return CellComparator.compareKey(key, in.segment(), KeyValueLayout.keyOffset(at), keyLength);
    } catch (IllegalArgumentException e) {
      throw in.malformed(at, "a well-formed key", e.getMessage());
    }
  }

  /**
   * Checks the lengths of the cell at {@code at} against the cells region and returns where the
   * cell ends (after its mvcc); also notes its length without the mvcc, its key and value lengths
   * and its sequence id.
   */
  final int cellEnd(int at) {
    MemorySegment payload = in.segment();
    if (at < cellsStart || at > cellsEnd - KeyValueLayout.KEY_OFFSET) {
      throw noLengths(at);
    }
    long lengths = payload.get(KeyValueLayout.LONG, at);
    int keyLength = (int) (lengths >> Integer.SIZE);
    int valueLength = (int) lengths;
    long end = KeyValueLayout.valueOffset(at, keyLength) + valueLength;
    if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE || valueLength < 0 || end > cellsEnd) {
      throw badLengths(at, keyLength, valueLength);
    }
    if (context.includesTags()) {
      end = afterTags(payload, at, end);
    }
    parsedLength = (int) (end - at);
    parsedKeyLength = keyLength;
    parsedValueLength = valueLength;
    parsedSequenceId = 0;
    if (context.includesMvcc()) {
      byte first = mvccFirstByte(payload, end);
      int size = Bytes.vlongSizeFromFirstByte(first);
      checkMvccEnd(end, size);
      parsedSequenceId = size == 1 ? first : sequenceId(payload, end, first, size);
      end += size;
    }
    return (int) end;
  }

  /**
   * The end of the cell at {@code at}, checked as {@link #cellEnd(int)} checks it, for walks that
   * step over cells without stopping on them: the two lengths are one 8-byte read, the sequence
   * id's size comes from its first byte, and nothing is recorded, so a step is three memory reads
   * at most (a walk over a fresh 64 KiB block steps over hundreds of cells).
   */
  final int skipCell(int at) {
    MemorySegment payload = in.segment();
    if (at < cellsStart || at > cellsEnd - KeyValueLayout.KEY_OFFSET) {
      throw noLengths(at);
    }
    long lengths = payload.get(KeyValueLayout.LONG, at);
    int keyLength = (int) (lengths >> Integer.SIZE);
    int valueLength = (int) lengths;
    long end = KeyValueLayout.valueOffset(at, keyLength) + valueLength;
    if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE || valueLength < 0 || end > cellsEnd) {
      throw badLengths(at, keyLength, valueLength);
    }
    if (context.includesTags()) {
      end = afterTags(payload, at, end);
    }
    if (context.includesMvcc()) {
      end += mvccSize(payload, end);
    }
    return (int) end;
  }

  /**
   * The sequence id vlong of {@code size} bytes (more than one, checked to end within the cells) at
   * {@code end}, whose first byte is {@code first}: its magnitude bytes with one eight-byte load
   * where the segment has room, as the first byte was read already.
   */
  private static long sequenceId(MemorySegment payload, long end, byte first, int size) {
    int magnitudeBytes = size - 1;
    long magnitude;
    if (end + 1 <= payload.byteSize() - Long.BYTES) {
      magnitude =
          payload.get(ByteLayouts.LONG_BE, end + 1) >>> (Byte.SIZE * (Long.BYTES - magnitudeBytes));
    } else {
      magnitude = 0;
      for (int i = 1; i <= magnitudeBytes; i++) {
        magnitude =
            (magnitude << Byte.SIZE) | Byte.toUnsignedLong(payload.get(ByteLayouts.BYTE, end + i));
      }
    }
    return Bytes.vlongFromParts(first, magnitude);
  }

  /** The size of the sequence id vlong at {@code end}, checked to end within the cells. */
  private int mvccSize(MemorySegment payload, long end) {
    int size = Bytes.vlongSizeFromFirstByte(mvccFirstByte(payload, end));
    checkMvccEnd(end, size);
    return size;
  }

  /** The first byte of the sequence id vlong at {@code end}, checked to lie within the cells. */
  private byte mvccFirstByte(MemorySegment payload, long end) {
    if (end >= cellsEnd) {
      throw noMvcc(end);
    }
    return payload.get(ByteLayouts.BYTE, end);
  }

  /** Checks that a sequence id vlong of {@code size} bytes at {@code end} ends within the cells. */
  private void checkMvccEnd(long end, int size) {
    if (end + size > cellsEnd) {
      throw badMvcc(end, size);
    }
  }

  /** The end of the tags of the cell at {@code at}, whose value ends at {@code end}. */
  private long afterTags(MemorySegment payload, int at, long end) {
    if (end > cellsEnd - KeyValueLayout.TAGS_LENGTH_SIZE) {
      throw in.malformed(end, "a tags length", "the end of the cells at " + cellsEnd);
    }
    int tagsLength = KeyValueLayout.tagsLength(payload, end);
    long tagsEnd = end + KeyValueLayout.TAGS_LENGTH_SIZE + tagsLength;
    if (tagsEnd > cellsEnd) {
      throw in.malformed(
          at, "tags ending by " + cellsEnd, "tags length " + tagsLength + " ending at " + tagsEnd);
    }
    return tagsEnd;
  }

  // The failures of cellEnd, built apart so that its common path stays small enough to inline.

  private MalformedBlockException noLengths(int at) {
    return in.malformed(
        at, "a cell's key and value lengths before " + cellsEnd, "the end of the cells");
  }

  private MalformedBlockException badLengths(int at, int keyLength, int valueLength) {
    return in.malformed(
        at,
        "a key of at least "
            + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
            + " bytes and a value ending by "
            + cellsEnd,
        "key length " + keyLength + ", value length " + valueLength);
  }

  private MalformedBlockException noMvcc(long end) {
    return in.malformed(end, "an mvcc vlong", "the end of the cells at " + cellsEnd);
  }

  private MalformedBlockException badMvcc(long end, int size) {
    return in.malformed(end, "an mvcc vlong of " + size + " bytes", "the end at " + cellsEnd);
  }

  private void positionAt(int at) {
    valid = false;
    int end = cellEnd(at);
    try {
      current.reset(
          in.segment(),
          at,
          parsedLength,
          parsedKeyLength,
          parsedValueLength,
          context.includesTags(),
          parsedSequenceId);
    } catch (IllegalArgumentException e) {
      throw in.malformed(at, "a well-formed KeyValue", e.getMessage());
    }
    position = at;
    positionEnd = end;
    valid = true;
  }

  final void checkBlock() {
    if (!blockSet) {
      throw new IllegalStateException("no block was set, or the last one set was malformed");
    }
  }
}
