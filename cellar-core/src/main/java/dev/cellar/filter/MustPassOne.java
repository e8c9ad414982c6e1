package dev.cellar.filter;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import java.util.Arrays;
import java.util.List;

/**
 * The MUST_PASS_ONE side of {@link FilterList}, as HBase 2.6's FilterListWithOR:
 *
 * <ul>
 *   <li>every member that is not done sees each cell, unless its previous answer already covers the
 *       cell (it asked to leave the column or the family's row the cell is still in, or to seek to
 *       a hint the cell is still before): the list may have moved only one cell on, and the member
 *       must not see cells it has skipped. It is then answered for with that same skip;
 *   <li>the answers merge to the shortest skip, so a seek hint counts only if every member gave
 *       one, and the list's hint is then the nearest;
 *   <li>the row key is dropped if every member not done drops it (all are asked, since some track
 *       the row there); a row is dropped if every member's {@link #filterRow} says so; the list is
 *       done when every member is.
 * </ul>
 *
 * To judge the next cell against a member's previous answer without keeping the previous cell
 * (whose memory moves on), the list copies what the answer needs: the column, or the hint. A {@link
 * HintingFilter}, whose answer does not depend on what it was shown, is simply asked again after a
 * seek answer (it answers as the hint would), and its hint is computed only when the list seeks, so
 * judging cells allocates nothing. Not thread-safe.
 */
final class MustPassOne extends Filter {

  private final Filter[] filters;
  private final ReturnCode[] previous;
  private final ColumnMark[] previousColumn;
  private final boolean[] hinting;
  private final Cell[] hints;

  MustPassOne(List<Filter> filters) {
    this.filters = filters.toArray(Filter[]::new);
    int count = this.filters.length;
    this.previous = new ReturnCode[count];
    this.previousColumn = new ColumnMark[count];
    this.hinting = new boolean[count];
    this.hints = new Cell[count];
    for (int i = 0; i < count; i++) {
      previousColumn[i] = new ColumnMark();
      hinting[i] = this.filters[i] instanceof HintingFilter;
    }
  }

  @Override
  public void reset() {
    for (Filter filter : filters) {
      filter.reset();
    }
    Arrays.fill(previous, null);
    Arrays.fill(hints, null);
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    boolean dropped = filters.length > 0;
    for (Filter filter : filters) {
      if (!filter.filterAllRemaining() && !filter.filterRowKey(firstRowCell)) {
        dropped = false;
      }
    }
    return dropped;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (filters.length == 0) {
      return ReturnCode.INCLUDE;
    }
    ReturnCode merged = null;
    for (int i = 0; i < filters.length; i++) {
      Filter filter = filters[i];
      if (filter.filterAllRemaining()) {
        continue;
      }
      ReturnCode code = coveredByPrevious(i, cell);
      if (code == null) {
        code = filter.filterCell(cell);
        if (code == ReturnCode.SEEK_NEXT_USING_HINT && !hinting[i]) {
          hints[i] = filter.nextCellHint(cell);
        }
      }
      remember(i, code, cell);
      merged = merged == null ? code : ReturnCodes.any(merged, code);
    }
    return merged == null ? ReturnCode.SKIP : merged;
  }

  /** Member {@code i}'s previous answer, repeated, if it covers {@code cell}; otherwise null. */
  private ReturnCode coveredByPrevious(int i, Cell cell) {
    ReturnCode code = previous[i];
    if (code == null) {
      return null;
    }
    return switch (code) {
      case INCLUDE, SKIP -> null;
      case NEXT_COL, INCLUDE_AND_NEXT_COL ->
          previousColumn[i].sameColumn(cell) ? ReturnCode.NEXT_COL : null;
      case NEXT_ROW, INCLUDE_AND_SEEK_NEXT_ROW ->
          previousColumn[i].sameFamily(cell) ? ReturnCode.NEXT_ROW : null;
      case SEEK_NEXT_USING_HINT ->
          !hinting[i] && hints[i] != null && CellComparator.INSTANCE.compare(cell, hints[i]) < 0
              ? ReturnCode.SEEK_NEXT_USING_HINT
              : null;
    };
  }

  private void remember(int i, ReturnCode code, Cell cell) {
    previous[i] = code;
    if (code != ReturnCode.INCLUDE
        && code != ReturnCode.SKIP
        && code != ReturnCode.SEEK_NEXT_USING_HINT) {
      previousColumn[i].set(cell);
    }
  }

  /** The nearest of the hints every member still running gave for {@code current}. */
  @Override
  public Cell nextCellHint(Cell current) {
    Cell nearest = null;
    for (int i = 0; i < filters.length; i++) {
      if (filters[i].filterAllRemaining()) {
        continue;
      }
      Cell hint = hinting[i] ? filters[i].nextCellHint(current) : hints[i];
      if (hint == null) {
        return null;
      }
      if (nearest == null || CellComparator.INSTANCE.compare(nearest, hint) > 0) {
        nearest = hint;
      }
    }
    return nearest;
  }

  @Override
  public boolean filterAllRemaining() {
    for (Filter filter : filters) {
      if (!filter.filterAllRemaining()) {
        return false;
      }
    }
    return filters.length > 0;
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    for (Filter filter : filters) {
      filter.filterRowCells(cells);
    }
  }

  @Override
  public boolean filterRow() {
    for (Filter filter : filters) {
      if (!filter.filterRow()) {
        return false;
      }
    }
    return filters.length > 0;
  }

  @Override
  public boolean hasFilterRow() {
    for (Filter filter : filters) {
      if (filter.hasFilterRow()) {
        return true;
      }
    }
    return false;
  }
}
