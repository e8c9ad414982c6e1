package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.BloomType;
import java.lang.foreign.MemorySegment;

/**
 * The bytes a bloom filter hashes for a cell, and for a lookup, per bloom type. Stateless and
 * thread-safe.
 *
 * <pre>
 *   ROW                     row
 *   ROWPREFIX_FIXED_LENGTH  the first min(P, rowLength) row bytes
 *   ROWCOL                  a KeyValue key with an empty family, the newest timestamp and type
 *                           Maximum, whatever the cell's own family, timestamp and type:
 *
 *       +-----------+-----+----+-----------+-------------------------+----+
 *       | rowLength | row | 00 | qualifier | 7F FF FF FF FF FF FF FF | FF |
 *       | int16     |     |    |           | timestamp (Long.MAX)    |type|
 *       +-----------+-----+----+-----------+-------------------------+----+
 *
 *   delete family           row, for DeleteFamily and DeleteFamilyVersion cells only
 * </pre>
 *
 * <p>The same bytes are a chunk's first key in the bloom index and the {@code LAST_BLOOM_KEY} of
 * FileInfo. ROW and ROWPREFIX keys order as unsigned bytes, ROWCOL keys as KeyValue keys; since
 * every ROWCOL key has an empty family and the same timestamp and type, that is row, then
 * qualifier.
 */
public final class BloomKeys {

  private static final int ROW_COL_OVERHEAD = KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
  private static final byte MAXIMUM_TYPE = CellType.MAXIMUM.code();

  private BloomKeys() {}

  /**
   * The key a bloom of {@code type} adds for {@code cell}.
   *
   * @param prefixLength the prefix length of a ROWPREFIX_FIXED_LENGTH bloom, ignored otherwise
   * @throws IllegalArgumentException for {@link BloomType#NONE}
   */
  public static byte[] of(BloomType type, int prefixLength, Cell cell) {
    return switch (type) {
      case ROW -> row(cell);
      case ROWPREFIX_FIXED_LENGTH -> rowPrefix(cell, prefixLength);
      case ROWCOL -> rowCol(cell);
      case NONE -> throw new IllegalArgumentException("bloom type NONE has no keys");
    };
  }

  /** The ROW key of a cell: a copy of its row. */
  public static byte[] row(Cell cell) {
    return cell.rowArray();
  }

  /**
   * The ROWPREFIX_FIXED_LENGTH key of a cell: its first {@code min(prefixLength, rowLength)} bytes.
   */
  public static byte[] rowPrefix(Cell cell, int prefixLength) {
    return Bytes.copy(
        cell.segment(), cell.rowOffset(), prefixLength(cell.rowLength(), prefixLength));
  }

  /** The ROWPREFIX_FIXED_LENGTH key to look up for a row. */
  public static byte[] rowPrefix(byte[] row, int prefixLength) {
    return Bytes.copy(MemorySegment.ofArray(row), 0, prefixLength(row.length, prefixLength));
  }

  /** The ROWCOL key of a cell: its row and qualifier in a key of the layout above. */
  public static byte[] rowCol(Cell cell) {
    return rowCol(
        cell.segment(),
        cell.rowOffset(),
        cell.rowLength(),
        cell.segment(),
        cell.qualifierOffset(),
        cell.qualifierLength());
  }

  /**
   * The ROWCOL key to look up for a row and a qualifier. An empty qualifier gives the key a
   * DeleteFamily marker of the row contributed.
   *
   * @throws IllegalArgumentException if the row is longer than HBase allows
   */
  public static byte[] rowCol(byte[] row, byte[] qualifier) {
    return rowCol(
        MemorySegment.ofArray(row),
        0,
        row.length,
        MemorySegment.ofArray(qualifier),
        0,
        qualifier.length);
  }

  /**
   * The ROWCOL key for a row and a qualifier given as ranges of segments.
   *
   * @throws IllegalArgumentException if the row is longer than HBase allows
   */
  public static byte[] rowCol(
      MemorySegment row,
      long rowOffset,
      int rowLength,
      MemorySegment qualifier,
      long qualifierOffset,
      int qualifierLength) {
    if (rowLength < 0 || rowLength > KeyValueLayout.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          "row length: expected 0.." + KeyValueLayout.MAX_ROW_LENGTH + ", found " + rowLength);
    }
    if (qualifierLength < 0) {
      throw new IllegalArgumentException(
          "qualifier length: expected >= 0, found " + qualifierLength);
    }
    byte[] key = new byte[ROW_COL_OVERHEAD + rowLength + qualifierLength];
    MemorySegment out = MemorySegment.ofArray(key);
    out.set(KeyValueLayout.SHORT, 0, (short) rowLength);
    MemorySegment.copy(row, rowOffset, out, KeyValueLayout.rowOffset(0), rowLength);
    long familyLengthOffset = KeyValueLayout.familyLengthOffset(0, rowLength);
    out.set(KeyValueLayout.BYTE, familyLengthOffset, (byte) 0);
    long qualifierStart = KeyValueLayout.familyOffset(0, rowLength);
    MemorySegment.copy(qualifier, qualifierOffset, out, qualifierStart, qualifierLength);
    out.set(
        KeyValueLayout.LONG,
        KeyValueLayout.timestampOffset(0, key.length),
        KeyValue.LATEST_TIMESTAMP);
    out.set(KeyValueLayout.BYTE, KeyValueLayout.typeOffset(0, key.length), MAXIMUM_TYPE);
    return key;
  }

  /** Whether a cell feeds the delete-family bloom: a DeleteFamily or DeleteFamilyVersion marker. */
  public static boolean isDeleteFamilyMarker(Cell cell) {
    byte type = cell.typeByte();
    return type == CellType.DELETE_FAMILY.code() || type == CellType.DELETE_FAMILY_VERSION.code();
  }

  /**
   * Compares the key a bloom of {@code type} would add for {@code cell} with a key built by this
   * class, without building the cell's key.
   *
   * @return negative, zero or positive as the cell's key sorts before, equal to or after {@code
   *     key}
   */
  static int compare(BloomType type, int prefixLength, Cell cell, byte[] key) {
    MemorySegment keySegment = MemorySegment.ofArray(key);
    return switch (type) {
      case ROW -> compareRow(cell, cell.rowLength(), keySegment, 0, key.length);
      case ROWPREFIX_FIXED_LENGTH ->
          compareRow(cell, prefixLength(cell.rowLength(), prefixLength), keySegment, 0, key.length);
      case ROWCOL -> compareRowCol(cell, keySegment, key.length);
      case NONE -> throw new IllegalArgumentException("bloom type NONE has no keys");
    };
  }

  private static int compareRowCol(Cell cell, MemorySegment key, int keyLength) {
    int keyRowLength = KeyValueLayout.rowLength(key, 0);
    int diff = compareRow(cell, cell.rowLength(), key, KeyValueLayout.rowOffset(0), keyRowLength);
    if (diff != 0) {
      return diff;
    }
    long keyQualifierOffset = KeyValueLayout.familyOffset(0, keyRowLength);
    int keyQualifierLength = KeyValueLayout.qualifierLength(keyLength, keyRowLength, 0);
    return Bytes.compare(
        cell.segment(),
        cell.qualifierOffset(),
        cell.qualifierLength(),
        key,
        keyQualifierOffset,
        keyQualifierLength);
  }

  private static int compareRow(
      Cell cell, int rowBytes, MemorySegment key, long keyOffset, int keyLength) {
    return Bytes.compare(cell.segment(), cell.rowOffset(), rowBytes, key, keyOffset, keyLength);
  }

  private static int prefixLength(int rowLength, int prefixLength) {
    if (prefixLength < 1) {
      throw new IllegalArgumentException("row prefix length: expected >= 1, found " + prefixLength);
    }
    return Math.min(prefixLength, rowLength);
  }
}
