package dev.cellar.filter;

import dev.cellar.cell.Cell;

/**
 * Keeps the rows whose key passes the comparison, as HBase's RowFilter: the decision is taken once
 * per row in {@link #filterRowKey}, and a rejected row's cells (should the row be read anyway, in a
 * MUST_PASS_ONE list) are skipped a row at a time.
 */
public final class RowFilter extends CompareFilter {

  private boolean filterOutRow;

  public RowFilter(CompareOperator operator, ByteArrayComparable comparator) {
    super(operator, comparator);
  }

  @Override
  public void reset() {
    filterOutRow = false;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (!passes(firstRowCell.segment(), firstRowCell.rowOffset(), firstRowCell.rowLength())) {
      filterOutRow = true;
    }
    return filterOutRow;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return filterOutRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterOutRow;
  }
}
