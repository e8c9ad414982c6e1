package dev.cellar.filter;

import dev.cellar.cell.Cell;

/**
 * Filters out every row after reading it, as HBase's FilterAllFilter (which PerformanceEvaluation's
 * {@code --filterAll} uses to measure a scan's server-side cost without returning data): every cell
 * is skipped and every row dropped.
 */
public final class FilterAllFilter extends Filter {

  public FilterAllFilter() {}

  @Override
  public ReturnCode filterCell(Cell cell) {
    return ReturnCode.SKIP;
  }

  @Override
  public boolean filterRow() {
    return true;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "FilterAllFilter";
  }
}
