package dev.cellar.filter;

import dev.cellar.cell.Cell;

/**
 * Returns at most a page of rows, as HBase's PageFilter: it counts the rows it is asked to judge in
 * {@link #filterRow} (rows that still have cells after every other filter's per-cell and row-cell
 * decisions) and ends the scan once it has let {@code pageSize} through.
 *
 * <p>The count is per region scanner, as in HBase, where each region applies the filter on its own:
 * a scan over several regions can return up to {@code pageSize} rows from each, and the caller
 * stops after the page. In a MUST_PASS_ALL {@link FilterList} it counts the rows that earlier
 * members' {@link #filterRow} let through, so it belongs last.
 */
public final class PageFilter extends Filter {

  private final long pageSize;
  private long rowsAccepted;

  /**
   * @param pageSize the most rows to return; 0 returns none
   * @throws IllegalArgumentException if {@code pageSize} is negative
   */
  public PageFilter(long pageSize) {
    if (pageSize < 0) {
      throw new IllegalArgumentException("PageFilter: page size must be >= 0, was " + pageSize);
    }
    this.pageSize = pageSize;
  }

  public long pageSize() {
    return pageSize;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    return filterAllRemaining();
  }

  @Override
  public boolean filterAllRemaining() {
    return rowsAccepted >= pageSize;
  }

  @Override
  public boolean filterRow() {
    rowsAccepted++;
    return rowsAccepted > pageSize;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "PageFilter " + pageSize;
  }
}
