package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.util.Comparator;

/**
 * Orders cells exactly as HBase's {@code CellComparatorImpl} does, so that files, indexes and
 * merges agree with HBase's. Immutable and thread-safe.
 *
 * <p>The order, field by field:
 *
 * <ol>
 *   <li>row, ascending, bytes compared unsigned;
 *   <li>the "last on row" rule: a cell with an empty family, an empty qualifier and type {@link
 *       CellType#MINIMUM} ({@link KeyValue#lastOnRow}) sorts after every other cell of its row,
 *       whatever its timestamp. HBase tests the left cell first: when both cells are such markers
 *       of the same row, the left one is reported greater, whichever it is (the rule is not
 *       antisymmetric there, and we keep that);
 *   <li>family, ascending; then qualifier, ascending (compared separately: family {@code a} with
 *       qualifier {@code b} sorts before family {@code ab} with an empty qualifier);
 *   <li>timestamp, <b>descending</b> (newest first);
 *   <li>type code, <b>descending</b> as an unsigned byte: {@link CellType#MAXIMUM} first, then the
 *       delete markers, then {@link CellType#PUT}, {@link CellType#MINIMUM} last;
 *   <li>for {@link #INSTANCE} only: sequence id, <b>descending</b> (the later write first).
 * </ol>
 *
 * <p>Raw keys (the key part of a KeyValue, without its length fields, as block indexes store them)
 * compare by the same rules through {@link #compareKey} and {@link #compareKeys}; they carry no
 * sequence id. Raw keys come from disk, so their row and family lengths are checked before use.
 *
 * <p>Hot path: nothing here allocates. Byte ranges are compared in place with {@link
 * Bytes#compare(MemorySegment, long, int, MemorySegment, long, int)}; the timestamp and type are
 * read only when the columns are equal.
 */
public final class CellComparator implements Comparator<Cell> {

  /** HBase's full order ({@code CellComparatorImpl.COMPARATOR}): key, then sequence id desc. */
  public static final CellComparator INSTANCE = new CellComparator(false);

  /** The key order alone: cells that differ only in sequence id compare equal. */
  public static final CellComparator IGNORING_SEQUENCE_ID = new CellComparator(true);

  private static final byte MINIMUM_CODE = CellType.MINIMUM.code();

  private final boolean ignoreSequenceId;

  private CellComparator(boolean ignoreSequenceId) {
    this.ignoreSequenceId = ignoreSequenceId;
  }

  @Override
  public int compare(Cell left, Cell right) {
    return compare(left, right, ignoreSequenceId);
  }

  /**
   * Compares two cells; with {@code ignoreSequenceId} false this is HBase's {@code
   * CellComparatorImpl.compare(left, right, false)}.
   */
  public static int compare(Cell left, Cell right, boolean ignoreSequenceId) {
    int diff = compareKeyIgnoringSequenceId(left, right);
    if (diff != 0 || ignoreSequenceId) {
      return diff;
    }
    return Long.compare(right.sequenceId(), left.sequenceId());
  }

  /** Compares the keys of two cells: every rule above except the sequence id. */
  public static int compareKeyIgnoringSequenceId(Cell left, Cell right) {
    int diff = compareRows(left, right);
    if (diff != 0) {
      return diff;
    }
    return compareAfterRow(
        left.segment(),
        left.familyOffset(),
        left.familyLength(),
        KeyValueLayout.timestampOffset(left.keyOffset(), left.keyLength()),
        right.segment(),
        right.familyOffset(),
        right.familyLength(),
        KeyValueLayout.timestampOffset(right.keyOffset(), right.keyLength()));
  }

  /**
   * Compares a cell's key with a raw key, ignoring the cell's sequence id (HBase's {@code
   * compareKeyIgnoresMvcc} against a key-only KeyValue).
   *
   * @param key memory holding the raw key: {@code rowLength | row | familyLength | family |
   *     qualifier | timestamp | type}
   * @throws IllegalArgumentException if the raw key's lengths are inconsistent
   */
  public static int compareKey(Cell cell, MemorySegment key, long keyOffset, int keyLength) {
    int keyRowLength = rawRowLength(key, keyOffset, keyLength);
    int diff =
        Bytes.compare(
            cell.segment(),
            cell.rowOffset(),
            cell.rowLength(),
            key,
            KeyValueLayout.rowOffset(keyOffset),
            keyRowLength);
    if (diff != 0) {
      return diff;
    }
    return compareAfterRow(
        cell.segment(),
        cell.familyOffset(),
        cell.familyLength(),
        KeyValueLayout.timestampOffset(cell.keyOffset(), cell.keyLength()),
        key,
        KeyValueLayout.familyOffset(keyOffset, keyRowLength),
        rawFamilyLength(key, keyOffset, keyLength, keyRowLength),
        KeyValueLayout.timestampOffset(keyOffset, keyLength));
  }

  /**
   * Compares two raw keys.
   *
   * @throws IllegalArgumentException if either key's lengths are inconsistent
   * @see #compareKey
   */
  public static int compareKeys(
      MemorySegment left,
      long leftOffset,
      int leftLength,
      MemorySegment right,
      long rightOffset,
      int rightLength) {
    int leftRowLength = rawRowLength(left, leftOffset, leftLength);
    int rightRowLength = rawRowLength(right, rightOffset, rightLength);
    int diff =
        Bytes.compare(
            left,
            KeyValueLayout.rowOffset(leftOffset),
            leftRowLength,
            right,
            KeyValueLayout.rowOffset(rightOffset),
            rightRowLength);
    if (diff != 0) {
      return diff;
    }
    return compareAfterRow(
        left,
        KeyValueLayout.familyOffset(leftOffset, leftRowLength),
        rawFamilyLength(left, leftOffset, leftLength, leftRowLength),
        KeyValueLayout.timestampOffset(leftOffset, leftLength),
        right,
        KeyValueLayout.familyOffset(rightOffset, rightRowLength),
        rawFamilyLength(right, rightOffset, rightLength, rightRowLength),
        KeyValueLayout.timestampOffset(rightOffset, rightLength));
  }

  /** Compares the rows of two cells. */
  public static int compareRows(Cell left, Cell right) {
    return Bytes.compare(
        left.segment(),
        left.rowOffset(),
        left.rowLength(),
        right.segment(),
        right.rowOffset(),
        right.rowLength());
  }

  /** Whether two cells have the same row: an equality test, cheaper than an order. */
  public static boolean sameRow(Cell left, Cell right) {
    return Bytes.equals(
        left.segment(),
        left.rowOffset(),
        left.rowLength(),
        right.segment(),
        right.rowOffset(),
        right.rowLength());
  }

  /** Compares a cell's row with a row given as a byte range (a scan's start or stop row). */
  public static int compareRow(Cell cell, MemorySegment row, long rowOffset, int rowLength) {
    return Bytes.compare(
        cell.segment(), cell.rowOffset(), cell.rowLength(), row, rowOffset, rowLength);
  }

  /** Compares the families of two cells. */
  public static int compareFamilies(Cell left, Cell right) {
    return Bytes.compare(
        left.segment(),
        left.familyOffset(),
        left.familyLength(),
        right.segment(),
        right.familyOffset(),
        right.familyLength());
  }

  /** Compares the qualifiers of two cells. */
  public static int compareQualifiers(Cell left, Cell right) {
    return Bytes.compare(
        left.segment(),
        left.qualifierOffset(),
        left.qualifierLength(),
        right.segment(),
        right.qualifierOffset(),
        right.qualifierLength());
  }

  /**
   * Everything after the row, on keys described by where their family starts and how long it is and
   * where their timestamp starts: the qualifier lies between the two and the type follows the
   * timestamp.
   */
  private static int compareAfterRow(
      MemorySegment left,
      long leftFamilyOffset,
      int leftFamilyLength,
      long leftTimestampOffset,
      MemorySegment right,
      long rightFamilyOffset,
      int rightFamilyLength,
      long rightTimestampOffset) {
    long leftQualifierOffset = leftFamilyOffset + leftFamilyLength;
    long rightQualifierOffset = rightFamilyOffset + rightFamilyLength;
    int leftQualifierLength = (int) (leftTimestampOffset - leftQualifierOffset);
    int rightQualifierLength = (int) (rightTimestampOffset - rightQualifierOffset);
    if (leftFamilyLength + leftQualifierLength == 0
        && typeAt(left, leftTimestampOffset) == MINIMUM_CODE) {
      return 1;
    }
    if (rightFamilyLength + rightQualifierLength == 0
        && typeAt(right, rightTimestampOffset) == MINIMUM_CODE) {
      return -1;
    }
    int diff =
        Bytes.compare(
            left, leftFamilyOffset, leftFamilyLength, right, rightFamilyOffset, rightFamilyLength);
    if (diff != 0) {
      return diff;
    }
    diff =
        Bytes.compare(
            left,
            leftQualifierOffset,
            leftQualifierLength,
            right,
            rightQualifierOffset,
            rightQualifierLength);
    if (diff != 0) {
      return diff;
    }
    diff =
        Long.compare(
            right.get(KeyValueLayout.LONG, rightTimestampOffset),
            left.get(KeyValueLayout.LONG, leftTimestampOffset));
    if (diff != 0) {
      return diff;
    }
    return Byte.toUnsignedInt(typeAt(right, rightTimestampOffset))
        - Byte.toUnsignedInt(typeAt(left, leftTimestampOffset));
  }

  private static byte typeAt(MemorySegment key, long timestampOffset) {
    return key.get(KeyValueLayout.BYTE, timestampOffset + KeyValueLayout.TIMESTAMP_SIZE);
  }

  private static int rawRowLength(MemorySegment key, long keyOffset, int keyLength) {
    if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE) {
      throw malformedKey(
          keyOffset,
          "a key length of at least " + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE,
          "key length " + keyLength);
    }
    int rowLength = KeyValueLayout.rowLength(key, keyOffset);
    int maxRowLength = keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
    if (rowLength < 0 || rowLength > maxRowLength) {
      throw malformedKey(
          keyOffset, "a row length between 0 and " + maxRowLength, "row length " + rowLength);
    }
    return rowLength;
  }

  private static int rawFamilyLength(
      MemorySegment key, long keyOffset, int keyLength, int rowLength) {
    int familyLength =
        KeyValueLayout.familyLength(key, KeyValueLayout.familyLengthOffset(keyOffset, rowLength));
    int maxFamilyLength =
        Math.min(
            KeyValueLayout.MAX_FAMILY_LENGTH,
            keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE - rowLength);
    if (familyLength > maxFamilyLength) {
      throw malformedKey(
          keyOffset,
          "a family length between 0 and " + maxFamilyLength,
          "family length " + familyLength);
    }
    return familyLength;
  }

  private static IllegalArgumentException malformedKey(
      long keyOffset, String expected, String found) {
    return new IllegalArgumentException(
        "malformed key at offset " + keyOffset + ": expected " + expected + ", found " + found);
  }
}
