package dev.cellar.filter;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import java.util.List;

/**
 * The MUST_PASS_ALL side of {@link FilterList}, as HBase 2.6's FilterListWithAND:
 *
 * <ul>
 *   <li>a cell is shown to the members in order until the merged answer stops keeping it (later
 *       members never see it, so their counts and states are not disturbed), then to the remaining
 *       {@link HintingFilter}s only, for their hints; any hint makes the answer {@link
 *       ReturnCode#SEEK_NEXT_USING_HINT}, to the farthest hint given;
 *   <li>a member that is done ({@link #filterAllRemaining}) makes the answer NEXT_ROW and the list
 *       done;
 *   <li>every member sees every row key; the row is dropped if one drops it, unless a hinting
 *       member let it through (its hint may then skip further than the next row would);
 *   <li>a row is dropped by the first member whose {@link #filterRow} says so (later ones are not
 *       asked).
 * </ul>
 *
 * Not thread-safe.
 */
final class MustPassAll extends Filter {

  private final Filter[] filters;
  private final boolean[] hinting;
  private final Filter[] seekHinters;
  private int seekHinterCount;

  MustPassAll(List<Filter> filters) {
    this.filters = filters.toArray(Filter[]::new);
    this.hinting = new boolean[this.filters.length];
    for (int i = 0; i < this.filters.length; i++) {
      hinting[i] = this.filters[i] instanceof HintingFilter;
    }
    this.seekHinters = new Filter[this.filters.length];
  }

  @Override
  public void reset() {
    for (Filter filter : filters) {
      filter.reset();
    }
    seekHinterCount = 0;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    boolean anyDropped = false;
    boolean hintingPassed = false;
    for (int i = 0; i < filters.length; i++) {
      Filter filter = filters[i];
      if (filter.filterAllRemaining()) {
        return true;
      }
      if (filter.filterRowKey(firstRowCell)) {
        anyDropped = true;
      } else if (hinting[i]) {
        hintingPassed = true;
      }
    }
    return anyDropped && !hintingPassed;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    ReturnCode merged = ReturnCode.INCLUDE;
    seekHinterCount = 0;
    int i = 0;
    for (; i < filters.length; i++) {
      Filter filter = filters[i];
      if (filter.filterAllRemaining()) {
        merged = ReturnCode.NEXT_ROW;
        break;
      }
      ReturnCode code = filter.filterCell(cell);
      if (code == ReturnCode.SEEK_NEXT_USING_HINT) {
        seekHinters[seekHinterCount++] = filter;
      }
      merged = ReturnCodes.all(merged, code);
      if (!ReturnCodes.includes(merged)) {
        break;
      }
    }
    for (i++; i < filters.length; i++) {
      if (hinting[i] && filters[i].filterCell(cell) == ReturnCode.SEEK_NEXT_USING_HINT) {
        seekHinters[seekHinterCount++] = filters[i];
      }
    }
    return seekHinterCount > 0 ? ReturnCode.SEEK_NEXT_USING_HINT : merged;
  }

  /** The farthest hint of the members that asked to seek on {@code current}. */
  @Override
  public Cell nextCellHint(Cell current) {
    Cell farthest = null;
    for (int i = 0; i < seekHinterCount; i++) {
      Filter filter = seekHinters[i];
      if (filter.filterAllRemaining()) {
        continue;
      }
      Cell hint = filter.nextCellHint(current);
      if (hint != null
          && (farthest == null || CellComparator.INSTANCE.compare(farthest, hint) < 0)) {
        farthest = hint;
      }
    }
    return farthest;
  }

  @Override
  public boolean filterAllRemaining() {
    for (Filter filter : filters) {
      if (filter.filterAllRemaining()) {
        return true;
      }
    }
    return false;
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
      if (filter.filterRow()) {
        return true;
      }
    }
    return false;
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
