package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.BloomType;
import java.lang.foreign.MemorySegment;

/**
 * How the keys of a bloom's chunk index are ordered: raw unsigned bytes for ROW, ROWPREFIX and the
 * delete-family bloom; KeyValue keys ({@link CellComparator#compareKeys}) for ROWCOL. Stateless and
 * thread-safe.
 */
enum KeyOrder {
  UNSIGNED_BYTES {
    @Override
    int compare(
        MemorySegment left,
        long leftOffset,
        int leftLength,
        MemorySegment right,
        long rightOffset,
        int rightLength) {
      return Bytes.compare(left, leftOffset, leftLength, right, rightOffset, rightLength);
    }

    @Override
    String problemWith(MemorySegment key) {
      return null;
    }
  },

  KEYVALUE_KEYS {
    @Override
    int compare(
        MemorySegment left,
        long leftOffset,
        int leftLength,
        MemorySegment right,
        long rightOffset,
        int rightLength) {
      return CellComparator.compareKeys(
          left, leftOffset, leftLength, right, rightOffset, rightLength);
    }

    @Override
    String problemWith(MemorySegment key) {
      long length = key.byteSize();
      if (length < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE) {
        return "a KeyValue key of " + length + " bytes";
      }
      int rowLength = KeyValueLayout.rowLength(key, 0);
      long maxRowLength = length - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
      if (rowLength < 0 || rowLength > maxRowLength) {
        return "a KeyValue key of " + length + " bytes with row length " + rowLength;
      }
      int familyLength =
          KeyValueLayout.familyLength(key, KeyValueLayout.familyLengthOffset(0, rowLength));
      if (familyLength > maxRowLength - rowLength) {
        return "a KeyValue key of " + length + " bytes with family length " + familyLength;
      }
      return null;
    }
  };

  /** The order of the chunk keys of a bloom of {@code type}. */
  static KeyOrder of(BloomType type) {
    return switch (type) {
      case ROW, ROWPREFIX_FIXED_LENGTH -> UNSIGNED_BYTES;
      case ROWCOL -> KEYVALUE_KEYS;
      case NONE -> throw new IllegalArgumentException("bloom type NONE has no keys");
    };
  }

  /** Compares two keys of this order. */
  abstract int compare(
      MemorySegment left,
      long leftOffset,
      int leftLength,
      MemorySegment right,
      long rightOffset,
      int rightLength);

  /** Compares two whole keys. */
  final int compare(MemorySegment left, MemorySegment right) {
    return compare(left, 0, (int) left.byteSize(), right, 0, (int) right.byteSize());
  }

  /**
   * Describes what makes {@code key} unusable in this order, or returns {@code null} if it is
   * usable.
   */
  abstract String problemWith(MemorySegment key);
}
