package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.Objects;

/**
 * Drops a whole row if its inner filter drops any of the row's cells, as HBase's SkipFilter: any
 * answer but {@link ReturnCode#INCLUDE} for a cell (a skip, a seek, even INCLUDE_AND_NEXT_COL)
 * marks the row, which {@link #filterRow} then drops. The inner filter's answers still steer the
 * scan, and its row-key decision is not asked.
 */
public final class SkipFilter extends Filter {

  private final Filter inner;
  private boolean dropRow;

  public SkipFilter(Filter inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
  }

  public Filter inner() {
    return inner;
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    inner.setReversed(reversed);
  }

  @Override
  public void reset() {
    inner.reset();
    dropRow = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    ReturnCode code = inner.filterCell(cell);
    dropRow |= code != ReturnCode.INCLUDE;
    return code;
  }

  /** None, as HBase's SkipFilter gives none: after an inner hint the scan moves one cell on. */
  @Override
  public Cell nextCellHint(Cell current) {
    return null;
  }

  @Override
  public boolean filterRow() {
    return dropRow;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "SkipFilter (" + inner + ")";
  }
}
