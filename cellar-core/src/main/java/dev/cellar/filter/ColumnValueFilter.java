package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.util.Objects;

/**
 * Returns only the cells of one column whose value passes a comparison, as HBase's
 * ColumnValueFilter (where {@link SingleColumnValueFilter} returns whole rows). Other columns are
 * left a column at a time until the column has been seen in the row, then the rest of the family's
 * part of the row is left ({@link ReturnCode#NEXT_ROW}); the column's versions that fail, and every
 * version under NO_OP, are skipped. Compares in place.
 */
public final class ColumnValueFilter extends Filter {

  private final FixedColumn column;
  private final CompareOperator operator;
  private final ByteArrayComparable comparator;
  private boolean columnFound;

  /**
   * @param family the column's family; copied
   * @param qualifier the column's qualifier (null reads as empty); copied
   * @throws IllegalArgumentException if the operator asks for an order the comparator lacks
   */
  public ColumnValueFilter(
      byte[] family, byte[] qualifier, CompareOperator operator, ByteArrayComparable comparator) {
    this.column =
        new FixedColumn(
            Objects.requireNonNull(family, "family"), qualifier == null ? Bytes.EMPTY : qualifier);
    this.operator = Objects.requireNonNull(operator, "operator");
    this.comparator = Objects.requireNonNull(comparator, "comparator");
    CompareFilter.checkOperator("ColumnValueFilter", operator, comparator);
  }

  public byte[] family() {
    return column.family();
  }

  public byte[] qualifier() {
    return column.qualifier();
  }

  public CompareOperator operator() {
    return operator;
  }

  public ByteArrayComparable comparator() {
    return comparator;
  }

  @Override
  public void reset() {
    columnFound = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (!column.holds(cell)) {
      return columnFound ? ReturnCode.NEXT_ROW : ReturnCode.NEXT_COL;
    }
    columnFound = true;
    return operator != CompareOperator.NO_OP
            && operator.accepts(
                comparator.compareTo(cell.valueSegment(), cell.valueOffset(), cell.valueLength()))
        ? ReturnCode.INCLUDE
        : ReturnCode.SKIP;
  }

  @Override
  public String toString() {
    return "ColumnValueFilter (" + column + ", " + operator + ", " + comparator + ")";
  }
}
