package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;

/**
 * A copy of one cell's family and qualifier, kept after the cell's memory has moved on, to tell
 * whether a later cell is in the same family or column. The copy lives in an array that grows to
 * the longest column seen and is reused after that, so marking allocates nothing in the steady
 * state. Not thread-safe.
 */
final class ColumnMark {

  private byte[] bytes = new byte[32];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private int familyLength;
  private int qualifierLength;

  void set(Cell cell) {
    familyLength = cell.familyLength();
    qualifierLength = cell.qualifierLength();
    int length = familyLength + qualifierLength;
    if (length > bytes.length) {
      bytes = new byte[Math.max(length, 2 * bytes.length)];
      segment = MemorySegment.ofArray(bytes);
    }
    MemorySegment.copy(cell.segment(), cell.familyOffset(), segment, 0, familyLength);
    MemorySegment.copy(
        cell.segment(), cell.qualifierOffset(), segment, familyLength, qualifierLength);
  }

  boolean sameFamily(Cell cell) {
    return Bytes.equals(
        segment, 0, familyLength, cell.segment(), cell.familyOffset(), cell.familyLength());
  }

  boolean sameColumn(Cell cell) {
    return sameFamily(cell)
        && Bytes.equals(
            segment,
            familyLength,
            qualifierLength,
            cell.segment(),
            cell.qualifierOffset(),
            cell.qualifierLength());
  }
}
