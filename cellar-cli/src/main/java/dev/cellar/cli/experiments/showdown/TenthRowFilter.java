package dev.cellar.cli.experiments.showdown;

import dev.cellar.cell.Cell;
import dev.cellar.filter.Filter;
import java.lang.foreign.ValueLayout;

/**
 * Keeps the rows whose key ends in the digit 0 and filters out the others after reading their
 * cells, as a server-side filter returning one PE row in ten: PE's keys are decimal row numbers,
 * so exactly a tenth of any range of whole tens passes. Per-row state is reset before each row;
 * one instance serves one scan.
 */
final class TenthRowFilter extends Filter {

  private boolean drop;

  @Override
  public void reset() {
    drop = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    byte last = cell.segment().get(ValueLayout.JAVA_BYTE,
        cell.rowOffset() + cell.rowLength() - 1);
    drop = last != '0';
    return drop ? ReturnCode.SKIP : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return drop;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "TenthRowFilter";
  }
}
