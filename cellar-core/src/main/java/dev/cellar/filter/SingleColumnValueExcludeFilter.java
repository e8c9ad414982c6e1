package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.List;
import java.util.Objects;

/**
 * A {@link SingleColumnValueFilter} that leaves the tested column out of the rows it keeps, as
 * HBase's SingleColumnValueExcludeFilter: the row decision is the wrapped filter's, and {@link
 * #filterRowCells} then removes every cell of the tested column.
 */
public final class SingleColumnValueExcludeFilter extends Filter {

  private final SingleColumnValueFilter test;
  private final FixedColumn column;

  /**
   * @param test the filter deciding the row; this filter owns it from now on
   */
  public SingleColumnValueExcludeFilter(SingleColumnValueFilter test) {
    this.test = Objects.requireNonNull(test, "test");
    this.column = new FixedColumn(test.family(), test.qualifier());
  }

  /** The filter deciding the row. */
  public SingleColumnValueFilter test() {
    return test;
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    test.setReversed(reversed);
  }

  @Override
  public void reset() {
    test.reset();
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return test.filterCell(cell);
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    cells.removeIf(column::holds);
  }

  @Override
  public boolean filterRow() {
    return test.filterRow();
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "SingleColumnValueExcludeFilter " + test;
  }
}
