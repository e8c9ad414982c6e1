package dev.cellar.filter;

import dev.cellar.cell.Cell;

/**
 * Keeps the first {@code limit} columns of a row (the first version of each that reaches it), as
 * HBase's ColumnCountGetFilter, which is meant for a Get: a further column is dropped and marks the
 * filter done ({@link #filterAllRemaining}) until {@link #reset}, which the scanner may take as the
 * end of the scan, as HBase's does.
 */
public final class ColumnCountGetFilter extends Filter {

  private final int limit;
  private int count;

  /**
   * @param limit the most columns to keep
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public ColumnCountGetFilter(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("ColumnCountGetFilter: limit must be >= 0, was " + limit);
    }
    this.limit = limit;
  }

  public int limit() {
    return limit;
  }

  @Override
  public void reset() {
    count = 0;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    return filterAllRemaining();
  }

  @Override
  public boolean filterAllRemaining() {
    return count > limit;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    count++;
    return filterAllRemaining() ? ReturnCode.NEXT_COL : ReturnCode.INCLUDE_AND_NEXT_COL;
  }

  @Override
  public String toString() {
    return "ColumnCountGetFilter " + limit;
  }
}
