package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;

/**
 * A copy of a part of a cell a scanner must remember after its cursor moved on: the qualifier of
 * the column a tracker is in, the row a scanner is in. Cells under a cursor are views that move, so
 * the bytes are copied into an array that grows to the longest part seen and is reused after that.
 * Not thread-safe.
 */
final class CopiedBytes {

  private byte[] bytes = new byte[32];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private int length = -1;

  boolean isSet() {
    return length >= 0;
  }

  void clear() {
    length = -1;
  }

  private void set(MemorySegment source, long offset, int partLength) {
    if (partLength > bytes.length) {
      bytes = new byte[Math.max(partLength, 2 * bytes.length)];
      segment = MemorySegment.ofArray(bytes);
    }
    MemorySegment.copy(source, offset, segment, 0, partLength);
    length = partLength;
  }

  private boolean matches(MemorySegment other, long offset, int otherLength) {
    return length >= 0 && Bytes.equals(segment, 0, length, other, offset, otherLength);
  }

  /** Copies {@code cell}'s qualifier. */
  void setQualifier(Cell cell) {
    set(cell.segment(), cell.qualifierOffset(), cell.qualifierLength());
  }

  /** True if set and equal to {@code cell}'s qualifier. */
  boolean matchesQualifier(Cell cell) {
    return matches(cell.segment(), cell.qualifierOffset(), cell.qualifierLength());
  }

  /** Copies {@code cell}'s row. */
  void setRow(Cell cell) {
    set(cell.segment(), cell.rowOffset(), cell.rowLength());
  }

  /** True if set and equal to {@code cell}'s row. */
  boolean matchesRow(Cell cell) {
    return matches(cell.segment(), cell.rowOffset(), cell.rowLength());
  }

  /** The bytes copied, from offset 0, when set. */
  MemorySegment segment() {
    return segment;
  }

  /** The number of bytes copied, or -1 when not set. */
  int length() {
    return length;
  }
}
