package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.List;

/**
 * Ends the whole scan at the first row its inner filter rejects, as HBase's WhileMatchFilter: a row
 * key the inner filter drops, a cell it does not include, or a row it filters out all end the scan.
 * Per-scan state; one instance per scan.
 */
public final class WhileMatchFilter extends Filter {

  private final Filter inner;
  private boolean done;

  public WhileMatchFilter(Filter inner) {
    this.inner = inner;
  }

  /** The filter whose first rejection ends the scan. */
  public Filter inner() {
    return inner;
  }

  @Override
  public void reset() {
    inner.reset();
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    inner.setReversed(reversed);
  }

  @Override
  public boolean filterAllRemaining() {
    return done || inner.filterAllRemaining();
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    boolean drop = inner.filterRowKey(firstRowCell);
    done |= drop;
    return drop;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    ReturnCode code = inner.filterCell(cell);
    done |= code != ReturnCode.INCLUDE;
    return code;
  }

  @Override
  public Cell nextCellHint(Cell current) {
    return inner.nextCellHint(current);
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    inner.filterRowCells(cells);
  }

  @Override
  public boolean filterRow() {
    boolean drop = inner.filterRow();
    done |= drop;
    return drop;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "WhileMatchFilter(" + inner + ")";
  }
}
