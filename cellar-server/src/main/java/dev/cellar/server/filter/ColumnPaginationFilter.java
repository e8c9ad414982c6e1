package dev.cellar.server.filter;

import dev.cellar.cell.Cell;
import dev.cellar.filter.Filter;

/**
 * Keeps {@code limit} columns of each row after skipping the first {@code offset}, as HBase's
 * ColumnPaginationFilter with an integer offset: each column counts once (its newest version
 * surviving the read's other rules), across the row's families in order. Per-row state; one
 * instance per scan.
 */
public final class ColumnPaginationFilter extends Filter {

  private final int limit;
  private final int offset;
  private int count;

  public ColumnPaginationFilter(int limit, int offset) {
    if (limit < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "ColumnPaginationFilter: limit " + limit + " and offset " + offset + " must be >= 0");
    }
    this.limit = limit;
    this.offset = offset;
  }

  @Override
  public void reset() {
    count = 0;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (count >= offset + limit) {
      return ReturnCode.NEXT_ROW;
    }
    ReturnCode code = count < offset ? ReturnCode.NEXT_COL : ReturnCode.INCLUDE_AND_NEXT_COL;
    count++;
    return code;
  }

  @Override
  public String toString() {
    return "ColumnPaginationFilter(" + limit + ", " + offset + ")";
  }
}
