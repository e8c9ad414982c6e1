package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Keeps, of each row, only the cells whose timestamp is that of a version of a reference column, as
 * HBase's DependentColumnFilter: while the row is read it notes the timestamps of the reference
 * column's versions (those whose value passes the comparison, when a comparator is given; with a
 * comparator and NO_OP none pass), and {@link #filterRowCells} then removes every cell at any other
 * timestamp. The reference column's own versions are kept, unless {@code dropDependentColumn}, and
 * failing ones are skipped. The timestamps live in an array reused from row to row.
 */
public final class DependentColumnFilter extends Filter {

  private final FixedColumn column;
  private final boolean dropDependentColumn;
  private final CompareOperator operator;
  private final ByteArrayComparable comparator;
  private long[] stamps = new long[8];
  private int stampCount;

  /**
   * @param family the reference column's family; copied
   * @param qualifier the reference column's qualifier; copied
   * @param dropDependentColumn whether the reference column's own cells are left out
   * @param operator how a reference value must relate to the comparator's (ignored without one)
   * @param comparator what reference values are compared with; null to take every version
   * @throws IllegalArgumentException if the operator asks for an order the comparator lacks
   */
  public DependentColumnFilter(
      byte[] family,
      byte[] qualifier,
      boolean dropDependentColumn,
      CompareOperator operator,
      ByteArrayComparable comparator) {
    this.column =
        new FixedColumn(
            Objects.requireNonNull(family, "family"),
            Objects.requireNonNull(qualifier, "qualifier"));
    this.dropDependentColumn = dropDependentColumn;
    this.operator = Objects.requireNonNull(operator, "operator");
    this.comparator = comparator;
    if (comparator != null) {
      CompareFilter.checkOperator("DependentColumnFilter", operator, comparator);
    }
  }

  /** Every version of the reference column counts. */
  public DependentColumnFilter(byte[] family, byte[] qualifier, boolean dropDependentColumn) {
    this(family, qualifier, dropDependentColumn, CompareOperator.NO_OP, null);
  }

  public byte[] family() {
    return column.family();
  }

  public byte[] qualifier() {
    return column.qualifier();
  }

  public boolean dropDependentColumn() {
    return dropDependentColumn;
  }

  public CompareOperator operator() {
    return operator;
  }

  /** The comparator; null when every version counts. */
  public ByteArrayComparable comparator() {
    return comparator;
  }

  @Override
  public void reset() {
    stampCount = 0;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (!column.holds(cell)) {
      return ReturnCode.INCLUDE;
    }
    if (comparator != null
        && (operator == CompareOperator.NO_OP
            || !operator.accepts(
                comparator.compareTo(
                    cell.valueSegment(), cell.valueOffset(), cell.valueLength())))) {
      return ReturnCode.SKIP;
    }
    note(cell.timestamp());
    return dropDependentColumn ? ReturnCode.SKIP : ReturnCode.INCLUDE;
  }

  private void note(long timestamp) {
    if (noted(timestamp)) {
      return;
    }
    if (stampCount == stamps.length) {
      stamps = Arrays.copyOf(stamps, 2 * stamps.length);
    }
    stamps[stampCount++] = timestamp;
  }

  private boolean noted(long timestamp) {
    for (int i = 0; i < stampCount; i++) {
      if (stamps[i] == timestamp) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    cells.removeIf(cell -> !noted(cell.timestamp()));
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "DependentColumnFilter ("
        + column
        + ", "
        + dropDependentColumn
        + ", "
        + operator
        + ", "
        + comparator
        + ")";
  }
}
