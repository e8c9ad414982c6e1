package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;

/**
 * A copy of the key a delta encoder wrote last, and the common-prefix rule HBase's encoders apply
 * against it. Not thread-safe: owned by one encoder. The copy lets the caller reuse a cell's memory
 * as soon as {@code append} returns.
 *
 * <p>The common prefix of a key with this one is computed field by field, not byte by byte, as
 * HBase's {@code PrivateCellUtil.findCommonPrefixInFlatKey} does with the family taken as equal;
 * encoders must reproduce it exactly to write the same bytes:
 *
 * <ol>
 *   <li>row lengths differ: the number of equal leading bytes of the two 2-byte row lengths (0 or
 *       1); stop;
 *   <li>2 plus the common prefix of the rows; stop unless the rows are equal;
 *   <li>plus the family length byte and the family;
 *   <li>plus the common prefix of the qualifiers; stop unless timestamp and type count and the
 *       qualifiers are equal;
 *   <li>plus the equal leading bytes of the big-endian timestamps; stop unless all 8 are equal;
 *   <li>plus 1 if the type bytes are equal.
 * </ol>
 */
final class PreviousKey {

  private static final int INITIAL_CAPACITY = 256;
  private static final int ROW_LENGTH_HIGH_BYTE = 0xFF00;

  private byte[] bytes = new byte[INITIAL_CAPACITY];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private int keyLength;
  private int rowLength;
  private int familyLength;

  /** Copies the key of {@code cell}. */
  void set(Cell cell) {
    int length = cell.keyLength();
    if (length > bytes.length) {
      bytes = new byte[Math.max(length, 2 * bytes.length)];
      segment = MemorySegment.ofArray(bytes);
    }
    MemorySegment.copy(cell.segment(), cell.keyOffset(), segment, 0, length);
    keyLength = length;
    rowLength = cell.rowLength();
    familyLength = cell.familyLength();
  }

  int keyLength() {
    return keyLength;
  }

  long timestamp() {
    return KeyValueLayout.timestamp(segment, 0, keyLength);
  }

  byte typeByte() {
    return KeyValueLayout.typeByte(segment, 0, keyLength);
  }

  /** Returns whether {@code cell} has this key's family. */
  boolean sameFamily(Cell cell) {
    return Bytes.equals(
        cell.segment(),
        cell.familyOffset(),
        cell.familyLength(),
        segment,
        KeyValueLayout.familyOffset(0, rowLength),
        familyLength);
  }

  /** Returns a printable copy of this key's family, for messages. */
  String familyString() {
    return Bytes.toStringBinary(segment, KeyValueLayout.familyOffset(0, rowLength), familyLength);
  }

  /**
   * Returns how many leading bytes the key of {@code cell} shares with this key by HBase's rule;
   * with {@code withTimestampAndType} false the count stops after the qualifier.
   */
  int commonPrefix(Cell cell, boolean withTimestampAndType) {
    int cellRowLength = cell.rowLength();
    if (cellRowLength != rowLength) {
      return ((cellRowLength ^ rowLength) & ROW_LENGTH_HIGH_BYTE) == 0 ? 1 : 0;
    }
    long rowAt = KeyValueLayout.rowOffset(0);
    long rowMismatch =
        MemorySegment.mismatch(
            cell.segment(),
            cell.rowOffset(),
            cell.rowOffset() + cellRowLength,
            segment,
            rowAt,
            rowAt + rowLength);
    if (rowMismatch >= 0) {
      return KeyValueLayout.ROW_LENGTH_SIZE + (int) rowMismatch;
    }
    int prefix =
        KeyValueLayout.ROW_LENGTH_SIZE
            + rowLength
            + KeyValueLayout.FAMILY_LENGTH_SIZE
            + cell.familyLength();
    long qualifierAt = KeyValueLayout.familyOffset(0, rowLength) + familyLength;
    int qualifierLength = KeyValueLayout.qualifierLength(keyLength, rowLength, familyLength);
    long qualifierMismatch =
        MemorySegment.mismatch(
            cell.segment(),
            cell.qualifierOffset(),
            cell.qualifierOffset() + cell.qualifierLength(),
            segment,
            qualifierAt,
            qualifierAt + qualifierLength);
    if (qualifierMismatch >= 0) {
      return prefix + (int) qualifierMismatch;
    }
    prefix += qualifierLength;
    if (!withTimestampAndType) {
      return prefix;
    }
    int timestampPrefix = commonTimestampBytes(cell.timestamp(), timestamp());
    prefix += timestampPrefix;
    if (timestampPrefix == KeyValueLayout.TIMESTAMP_SIZE) {
      prefix += cell.typeByte() == typeByte() ? KeyValueLayout.TYPE_SIZE : 0;
    }
    return prefix;
  }

  /** Returns the number of equal leading bytes of two big-endian timestamps (0 to 8). */
  static int commonTimestampBytes(long left, long right) {
    return Long.numberOfLeadingZeros(left ^ right) / Byte.SIZE;
  }
}
