package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.row.CollectedRow;
import java.io.IOException;

/**
 * A forward cursor over sorted cells from one source (a MemStore segment or an HFile), as HBase's
 * KeyValueScanner. Cells come in {@link dev.cellar.cell.CellComparator#INSTANCE} order.
 *
 * <p>Lifetime: the cell {@link #peek()} returns is readable until the cursor moves ({@link
 * #next()}, {@link #seek}, {@link #reseek}) or closes; a caller keeping it longer takes it through
 * {@link #collectCurrent}, which pins its memory or copies it. Not thread-safe.
 */
public interface KeyValueScanner extends AutoCloseable {

  /** The current cell, or null when the cursor is exhausted or not yet positioned. */
  Cell peek();

  /** Moves past the current cell; returns the new current cell or null at the end. */
  Cell next() throws IOException;

  /** Positions on the first cell not before {@code key}; false if there is none. */
  boolean seek(Cell key) throws IOException;

  /** As {@link #seek}, for a key not before the current position (forward only, cheaper). */
  boolean reseek(Cell key) throws IOException;

  /**
   * Positions on the first cell of the last row before {@code key}'s row (of the last row of the
   * source when {@code key} is null), for reversed scans; false if there is none.
   */
  boolean seekToPreviousRow(Cell key) throws IOException;

  /**
   * Which source wins among equal cells: higher is newer (the MemStore above every file, newer
   * files above older ones).
   */
  long order();

  /**
   * Adds the current cell to {@code row} in the form that outlives this scanner's next move: a view
   * of a pinned block where the cell lies whole in one, else a copy (the default).
   */
  default void collectCurrent(CollectedRow row) {
    row.addCopy(peek());
  }

  /** Releases what the cursor holds. */
  @Override
  void close();
}
