package dev.cellar.cell.search;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A key-only cell rebuilt in place, for the seeks of a read that must not allocate: the first or
 * last key of a row, the last key of a column. Its bytes live in a heap array that grows to the
 * longest key asked for and is reused after that; {@link KeyValue#firstOnRow} and its siblings
 * build the same keys as new objects.
 *
 * <p>Layout: a KeyValue with an empty value and no tags (see {@link KeyValueLayout}):
 *
 * <pre>
 *  int32  keyLength | int32 valueLength (0) | int16 rowLength | row | int8 familyLength | family
 *  | qualifier | int64 timestamp | int8 type
 * </pre>
 *
 * <p>Ownership: the cell returned by each method is this object's own view, valid until its next
 * call; a caller hands it only to seeks that do not keep the key. Not thread-safe.
 */
public final class SearchKey {

  private byte[] bytes = new byte[64];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private final KeyValueCell view = new KeyValueCell();

  public SearchKey() {}

  /** The key sorting before every cell of {@code row}. */
  public Cell firstOnRow(byte[] row) {
    int keyLength = (int) KeyValueLayout.keyLength(row.length, 0, 0);
    int length = (int) KeyValueLayout.cellLength(keyLength, 0, 0, false);
    ensureCapacity(length);
    MemorySegment.copy(
        row,
        0,
        segment,
        KeyValueLayout.BYTE,
        KeyValueLayout.rowOffset(KeyValueLayout.keyOffset(0)),
        row.length);
    return build(
        segment,
        KeyValueLayout.rowOffset(KeyValueLayout.keyOffset(0)),
        row.length,
        null,
        0,
        0,
        null,
        0,
        0,
        KeyValue.LATEST_TIMESTAMP,
        CellType.MAXIMUM);
  }

  /** The key sorting before every cell of the row in {@code row[offset, offset + length)}. */
  public Cell firstOnRow(MemorySegment row, long offset, int length) {
    return build(
        row, offset, length, null, 0, 0, null, 0, 0, KeyValue.LATEST_TIMESTAMP, CellType.MAXIMUM);
  }

  /** The key sorting after every cell of {@code cell}'s row and before the next row. */
  public Cell lastOnRow(Cell cell) {
    return lastOnRow(cell.segment(), cell.rowOffset(), cell.rowLength());
  }

  /**
   * The key sorting after every cell of the row in {@code row[offset, offset + length)} and before
   * the next row.
   */
  public Cell lastOnRow(MemorySegment row, long offset, int length) {
    return build(
        row, offset, length, null, 0, 0, null, 0, 0, KeyValue.LATEST_TIMESTAMP, CellType.MINIMUM);
  }

  /** The key sorting after every version of {@code cell}'s column. */
  public Cell lastOnColumn(Cell cell) {
    return withColumnOf(cell, KeyValue.OLDEST_TIMESTAMP, CellType.MINIMUM);
  }

  /**
   * {@code cell}'s key with {@code timestamp} and {@code type}: the key's row, family and qualifier
   * are contiguous in every cell's serialization, so they are one copy.
   */
  private Cell withColumnOf(Cell cell, long timestamp, CellType type) {
    int keyLength = cell.keyLength();
    MemorySegment out = startKey(keyLength);
    MemorySegment.copy(
        cell.segment(),
        cell.keyOffset(),
        out,
        KeyValueLayout.keyOffset(0),
        keyLength - KeyValueLayout.TIMESTAMP_SIZE - KeyValueLayout.TYPE_SIZE);
    return finishKey(keyLength, timestamp, type);
  }

  /** The key sorting before every version of column {@code qualifier} in {@code cell}'s family. */
  public Cell firstOnColumn(Cell cell, MemorySegment qualifier, int qualifierLength) {
    MemorySegment key = cell.segment();
    return build(
        key,
        cell.rowOffset(),
        cell.rowLength(),
        key,
        cell.familyOffset(),
        cell.familyLength(),
        qualifier,
        0,
        qualifierLength,
        KeyValue.LATEST_TIMESTAMP,
        CellType.MAXIMUM);
  }

  private Cell build(
      MemorySegment row,
      long rowOffset,
      int rowLength,
      MemorySegment family,
      long familyOffset,
      int familyLength,
      MemorySegment qualifier,
      long qualifierOffset,
      int qualifierLength,
      long timestamp,
      CellType type) {
    int keyLength = (int) KeyValueLayout.keyLength(rowLength, familyLength, qualifierLength);
    MemorySegment out = startKey(keyLength);
    long keyOffset = KeyValueLayout.keyOffset(0);
    out.set(KeyValueLayout.SHORT, keyOffset, (short) rowLength);
    long rowAt = KeyValueLayout.rowOffset(keyOffset);
    if (row != out || rowOffset != rowAt) {
      MemorySegment.copy(row, rowOffset, out, rowAt, rowLength);
    }
    out.set(
        KeyValueLayout.BYTE,
        KeyValueLayout.familyLengthOffset(keyOffset, rowLength),
        (byte) familyLength);
    long familyAt = KeyValueLayout.familyOffset(keyOffset, rowLength);
    if (familyLength > 0) {
      MemorySegment.copy(family, familyOffset, out, familyAt, familyLength);
    }
    if (qualifierLength > 0) {
      MemorySegment.copy(qualifier, qualifierOffset, out, familyAt + familyLength, qualifierLength);
    }
    return finishKey(keyLength, timestamp, type);
  }

  /** Room for a key-only cell with a key of {@code keyLength} bytes, its two lengths written. */
  private MemorySegment startKey(int keyLength) {
    ensureCapacity((int) KeyValueLayout.cellLength(keyLength, 0, 0, false));
    segment.set(KeyValueLayout.INT, KeyValueLayout.KEY_LENGTH_OFFSET, keyLength);
    segment.set(KeyValueLayout.INT, KeyValueLayout.VALUE_LENGTH_OFFSET, 0);
    return segment;
  }

  /** Writes the timestamp and type ending the key started by {@link #startKey}; the view of it. */
  private Cell finishKey(int keyLength, long timestamp, CellType type) {
    long keyOffset = KeyValueLayout.keyOffset(0);
    segment.set(
        KeyValueLayout.LONG, KeyValueLayout.timestampOffset(keyOffset, keyLength), timestamp);
    segment.set(KeyValueLayout.BYTE, KeyValueLayout.typeOffset(keyOffset, keyLength), type.code());
    return view.reset(
        segment, 0, (int) KeyValueLayout.cellLength(keyLength, 0, 0, false), false, 0);
  }

  /** Grows the array (keeping its bytes) to hold {@code length} bytes. */
  private void ensureCapacity(int length) {
    if (length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(length, 2 * bytes.length));
      segment = MemorySegment.ofArray(bytes);
    }
  }
}
