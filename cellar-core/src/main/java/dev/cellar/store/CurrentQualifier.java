package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;

/**
 * A copy of the qualifier of the column a tracker is in. Cells under a cursor are views that move,
 * so the qualifier is copied into an array that grows to the longest qualifier seen and is reused
 * after that. Not thread-safe.
 */
final class CurrentQualifier {

  private byte[] bytes = new byte[32];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private int length = -1;

  boolean isSet() {
    return length >= 0;
  }

  void clear() {
    length = -1;
  }

  void set(Cell cell) {
    int qualifierLength = cell.qualifierLength();
    if (qualifierLength > bytes.length) {
      bytes = new byte[Math.max(qualifierLength, 2 * bytes.length)];
      segment = MemorySegment.ofArray(bytes);
    }
    MemorySegment.copy(cell.segment(), cell.qualifierOffset(), segment, 0, qualifierLength);
    length = qualifierLength;
  }

  /** True if set and equal to {@code cell}'s qualifier. */
  boolean matches(Cell cell) {
    return length >= 0 && Bytes.equals(segment, 0, length, cell.segment(), cell.qualifierOffset(),
        cell.qualifierLength());
  }
}
