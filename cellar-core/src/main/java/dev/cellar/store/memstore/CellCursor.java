package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.memory.Buf;

/**
 * A forward cursor over cells in {@code CellComparator.INSTANCE} order (HBase's {@code
 * KeyValueScanner} as far as the memstore needs it); the store layer adapts it to its own scanner
 * interface.
 *
 * <p>A cursor starts positioned on its first cell. Cells it returns stay readable until it is
 * closed, and no longer: copy a cell ({@code KeyValue.copyOf}) to keep it. Every method but {@link
 * #close()} throws {@link IllegalStateException} once the cursor is closed. Not thread-safe: one
 * reader at a time.
 */
public interface CellCursor extends AutoCloseable {

  /** The cell the cursor is on, without moving; null at the end. */
  Cell peek();

  /** The cell the cursor is on, moving past it; null at the end. */
  Cell next();

  /**
   * Moves to the first cell {@code >= key} in the full order (sequence id included: among equal
   * keys the larger sequence id sorts first, so a key with sequence id 0 lands after every version
   * of an equal key that has a larger one; seek keys built with type {@code MAXIMUM} avoid the
   * question). May move backwards.
   *
   * @return whether there is such a cell
   */
  boolean seek(Cell key);

  /**
   * Like {@link #seek} but never moves backwards: a cursor already on a cell {@code >= key} stays
   * where it is.
   *
   * @return whether the cursor is on a cell
   */
  boolean reseek(Cell key);

  /**
   * Positions on the first visible cell of the last row before {@code key}'s row (of the last row
   * when {@code key} is null), for reversed scans; false if there is none.
   */
  boolean seekToPreviousRow(Cell key);

  /**
   * A buffer whose reference keeps the current cell readable after the cursor moves or closes (the
   * MSLAB's {@link MemStoreLAB#pinHandle()} when the cell lies in one of its chunks), or null when
   * the cell must be copied to be kept.
   */
  default Buf pinOfCurrent() {
    return null;
  }

  /** Releases what the cursor holds; its cells become unreadable. Later calls do nothing. */
  @Override
  void close();
}
