package dev.cellar.filter;

import dev.cellar.cell.Cell;

/** Keeps the cells whose qualifier passes the comparison, as HBase's QualifierFilter. */
public final class QualifierFilter extends CompareFilter {

  public QualifierFilter(CompareOperator operator, ByteArrayComparable comparator) {
    super(operator, comparator);
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return passes(cell.segment(), cell.qualifierOffset(), cell.qualifierLength())
        ? ReturnCode.INCLUDE
        : ReturnCode.SKIP;
  }
}
