package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import java.io.IOException;

/**
 * One family's rows in scan order (forward, or reversed for a reversed scan), for a {@link
 * RegionScanner} that assembles rows across families. Not thread-safe.
 */
interface FamilyScanner extends AutoCloseable {

  /** A cell of the next row this family has (its first cell), or null when exhausted. */
  Cell peek();

  /**
   * Adds the family's matching cells of that row to {@code out} (views of pinned blocks, or copies)
   * and moves to the next row.
   */
  default void collectRow(CollectedRow out) throws IOException {
    collectRow(out, RowBudget.WHOLE_ROW);
  }

  /**
   * Adds the family's matching cells of the row to {@code out}, from where the previous call
   * stopped inside it if it did, until the row ends (then moves to the next row) or {@code budget}
   * stops it inside the row ({@link RowSifter#collectRow}); meanwhile {@link #peek()} is not asked.
   *
   * @return true when done with the row, false when stopped inside it
   */
  boolean collectRow(CollectedRow out, RowBudget budget) throws IOException;

  /** Moves to the next row without reading this one. */
  void skipRow() throws IOException;

  @Override
  void close();
}
