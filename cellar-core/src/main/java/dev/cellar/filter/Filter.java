package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.List;

/**
 * Decides, row by row and cell by cell, what a Get or Scan returns, with HBase's Filter contract.
 * For each row the scanner calls, in order: {@link #reset()}; {@link #filterRowKey} with the row's
 * first cell (true drops the row); {@link #filterCell} for every cell that survived versions,
 * deletes, time range and columns, family after family; then, if any cell was kept, {@link
 * #filterRowCells} (only when {@link #hasFilterRow}) and, if cells remain, {@link #filterRow} (true
 * drops the row). {@link #filterAllRemaining} true ends the scan; it is asked before each row.
 *
 * <p>The cells passed in are views into memory the scanner owns: read them during the call and keep
 * nothing that points into them.
 *
 * <p>A filter is used by one scanner on one thread, and holds per-row and per-scan state (a page
 * filter counts rows): give every scan its own instance.
 */
public abstract class Filter {

  /** What to do with one cell, as HBase's Filter.ReturnCode. */
  public enum ReturnCode {
    /** Keep the cell. */
    INCLUDE,
    /** Keep it and skip the column's other versions. */
    INCLUDE_AND_NEXT_COL,
    /** Keep it and skip the rest of the row in this family (each family is read on its own). */
    INCLUDE_AND_SEEK_NEXT_ROW,
    /** Drop the cell. */
    SKIP,
    /** Drop it and the column's other versions. */
    NEXT_COL,
    /** Drop it and the rest of the row in this family. */
    NEXT_ROW,
    /** Drop it and jump to {@link #nextCellHint}. */
    SEEK_NEXT_USING_HINT
  }

  private boolean reversed;

  protected Filter() {}

  /**
   * Tells the filter that the scan runs from the last row to the first (set by the scan before it
   * starts); filters whose meaning depends on the direction, as HBase's do, read {@link
   * #isReversed}. Wrapping filters pass it on to the filters they wrap.
   */
  public void setReversed(boolean reversed) {
    this.reversed = reversed;
  }

  public final boolean isReversed() {
    return reversed;
  }

  /** Called before each row; resets per-row state. */
  public void reset() {}

  /** True if the row whose first cell is {@code firstRowCell} is to be dropped unread. */
  public boolean filterRowKey(Cell firstRowCell) {
    return false;
  }

  /** The fate of one cell. */
  public ReturnCode filterCell(Cell cell) {
    return ReturnCode.INCLUDE;
  }

  /**
   * Where to jump after {@link #filterCell} answered {@link ReturnCode#SEEK_NEXT_USING_HINT} for
   * {@code current}: a cell after it. A null hint, or one not after {@code current}, makes the
   * scanner just move to the next cell.
   */
  public Cell nextCellHint(Cell current) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " gives no seek hint");
  }

  /** True once no later row can pass; ends the scan. */
  public boolean filterAllRemaining() {
    return false;
  }

  /** May remove cells from the row about to be returned. */
  public void filterRowCells(List<Cell> cells) {}

  /** True if the row just assembled is to be dropped. */
  public boolean filterRow() {
    return false;
  }

  /**
   * True if the filter works on whole rows, so rows cannot be split: only then does the scanner
   * call {@link #filterRowCells} ({@link #filterRow} is asked either way).
   */
  public boolean hasFilterRow() {
    return false;
  }
}
