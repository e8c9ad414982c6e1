package dev.cellar.hfile;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Shortened ("fake") index keys: the key the index records for a data block is a short key that
 * sorts after the previous block's last key and not after the block's first key, so index blocks
 * stay small. The rules are HBase's, so the index bytes match HBase's for the same cells:
 *
 * <ol>
 *   <li>rows differ: first-on-row of {@code separator(leftRow, rightRow)} (empty family and
 *       qualifier, latest timestamp, type Maximum);
 *   <li>families differ: right row, {@code separator(leftFamily, rightFamily)}, empty qualifier;
 *   <li>qualifiers differ: right row and family, {@code separator(leftQualifier, rightQualifier)};
 *   <li>otherwise the right key itself.
 * </ol>
 *
 * {@code separator(l, r)}: at the first differing byte {@code d}, {@code l[0..d)} plus {@code l[d]
 * + 1}; when {@code l} is a proper prefix of {@code r}, {@code l} plus one zero byte.
 */
final class IndexKeys {

  private IndexKeys() {}

  /** The serialized key of {@code cell}. */
  static byte[] keyOf(Cell cell) {
    return slice(cell.segment(), cell.keyOffset(), cell.keyLength());
  }

  private static byte[] slice(MemorySegment segment, long offset, int length) {
    return segment.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
  }

  /**
   * The index key for a block whose first cell is {@code right}, after a block ending in {@code
   * left}.
   */
  static byte[] midpoint(Cell left, Cell right) {
    byte[] leftRow = slice(left.segment(), left.rowOffset(), left.rowLength());
    byte[] rightRow = slice(right.segment(), right.rowOffset(), right.rowLength());
    if (!Arrays.equals(leftRow, rightRow)) {
      return keyOf(KeyValue.firstOnRow(separator(leftRow, rightRow)));
    }
    byte[] leftFamily = slice(left.segment(), left.familyOffset(), left.familyLength());
    byte[] rightFamily = slice(right.segment(), right.familyOffset(), right.familyLength());
    if (!Arrays.equals(leftFamily, rightFamily)) {
      return fakeKey(rightRow, separator(leftFamily, rightFamily), Bytes.EMPTY);
    }
    byte[] leftQualifier = slice(left.segment(), left.qualifierOffset(), left.qualifierLength());
    byte[] rightQualifier =
        slice(right.segment(), right.qualifierOffset(), right.qualifierLength());
    if (!Arrays.equals(leftQualifier, rightQualifier)) {
      return fakeKey(rightRow, rightFamily, separator(leftQualifier, rightQualifier));
    }
    return keyOf(right);
  }

  private static byte[] fakeKey(byte[] row, byte[] family, byte[] qualifier) {
    return keyOf(
        KeyValue.create(
            row, family, qualifier, KeyValue.LATEST_TIMESTAMP, CellType.MAXIMUM, Bytes.EMPTY));
  }

  /** The shortest byte string after {@code left} and not after {@code right} (left &lt; right). */
  static byte[] separator(byte[] left, byte[] right) {
    int common = Arrays.mismatch(left, right);
    if (common == left.length) {
      return Arrays.copyOf(left, left.length + 1);
    }
    byte[] out = Arrays.copyOf(left, common + 1);
    out[common] = (byte) (left[common] + 1);
    return out;
  }
}
