package dev.cellar.filter;

import dev.cellar.cell.Cell;

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

  /** How many columns of a row are kept. */
  public int limit() {
    return limit;
  }

  /** How many columns of a row are skipped first. */
  public int offset() {
    return offset;
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
