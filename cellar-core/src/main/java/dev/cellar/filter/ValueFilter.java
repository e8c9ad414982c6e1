package dev.cellar.filter;

import dev.cellar.cell.Cell;

/** Keeps the cells whose value passes the comparison, as HBase's ValueFilter. */
public final class ValueFilter extends CompareFilter {

  public ValueFilter(CompareOperator operator, ByteArrayComparable comparator) {
    super(operator, comparator);
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return passes(cell.valueSegment(), cell.valueOffset(), cell.valueLength())
        ? ReturnCode.INCLUDE
        : ReturnCode.SKIP;
  }
}
