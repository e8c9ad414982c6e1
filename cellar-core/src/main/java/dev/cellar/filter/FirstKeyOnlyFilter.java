package dev.cellar.filter;

import dev.cellar.cell.Cell;

/**
 * Keeps only the first cell of each row, as HBase's FirstKeyOnlyFilter (used to count rows or list
 * row keys cheaply). Per-row state; one instance per scan.
 */
public final class FirstKeyOnlyFilter extends Filter {

  private boolean found;

  /** A filter for one scan. */
  public FirstKeyOnlyFilter() {}

  @Override
  public void reset() {
    found = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (found) {
      return ReturnCode.NEXT_ROW;
    }
    found = true;
    return ReturnCode.INCLUDE;
  }

  @Override
  public String toString() {
    return "FirstKeyOnlyFilter";
  }
}
