package dev.cellar.filter;

import dev.cellar.cell.Cell;

/**
 * Keeps the cells whose family passes the comparison, as HBase's FamilyFilter. A family that fails
 * is left a row at a time: the scanner of one family sees only that family, so the rest of the row
 * there fails too.
 */
public final class FamilyFilter extends CompareFilter {

  public FamilyFilter(CompareOperator operator, ByteArrayComparable comparator) {
    super(operator, comparator);
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    int familyLength = cell.familyLength();
    if (familyLength > 0 && !passes(cell.segment(), cell.familyOffset(), familyLength)) {
      return ReturnCode.NEXT_ROW;
    }
    return ReturnCode.INCLUDE;
  }
}
