package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;

/**
 * The row a scanner is sifting, as it must be remembered while the cursor's views move through it:
 * a cell of the row that outlives the moves (the first one the row holder took: a view of a pinned
 * block, or a copy) or, when none was taken before the cursor first moves, a copy of the row. Most
 * rows start with a cell the holder takes, so most rows are never copied; a row a part read stops
 * inside is copied then, as the holder is cleared before the read goes on. Not thread-safe.
 */
final class CurrentRow {

  private final CopiedBytes copy = new CopiedBytes();
  private Cell kept;

  /** Starts a row: nothing stands for it until {@link #keep} or {@link #copyIfUnkept}. */
  void start() {
    kept = null;
    copy.clear();
  }

  /** Lets {@code stable}, a cell of the row that outlives the cursor's moves, stand for it. */
  void keep(Cell stable) {
    if (kept == null && !copy.isSet()) {
      kept = stable;
    }
  }

  /** Copies the row of {@code current}, a cell of it, unless a cell or a copy stands for it. */
  void copyIfUnkept(Cell current) {
    if (kept == null && !copy.isSet()) {
      copy.setRow(current);
    }
  }

  /**
   * Makes the row stand for itself, copying it from the cell kept if one stands for it: the row
   * holder is about to be cleared while the scanner stays in the row (a part read stopped inside
   * it), and its cells with it.
   */
  void ownCopy() {
    if (kept != null) {
      copy.setRow(kept);
      kept = null;
    }
  }

  /** Whether {@code cell} is of this row. */
  boolean matches(Cell cell) {
    if (kept == null) {
      return copy.matchesRow(cell);
    }
    return Bytes.equals(
        cell.segment(),
        cell.rowOffset(),
        cell.rowLength(),
        kept.segment(),
        kept.rowOffset(),
        kept.rowLength());
  }

  /** The memory holding the row's bytes (a kept cell's, or the copy's). */
  MemorySegment segment() {
    return kept == null ? copy.segment() : kept.segment();
  }

  /** Where the row's bytes start in {@link #segment()}. */
  long offset() {
    return kept == null ? 0 : kept.rowOffset();
  }

  /** The row's length. */
  int length() {
    return kept == null ? copy.length() : kept.rowLength();
  }
}
