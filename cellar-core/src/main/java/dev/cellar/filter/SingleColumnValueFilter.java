package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.Objects;

/**
 * Keeps the whole rows in which one column's value passes a comparison, as HBase's
 * SingleColumnValueFilter. The decision is a row's ({@link #filterRow}): cells pass {@link
 * #filterCell} while the column is looked for, and the row is dropped if the column was found and
 * did not match, or, with {@link #setFilterIfMissing}, if it was not found at all (by default a row
 * without the column is kept).
 *
 * <p>With {@link #setLatestVersionOnly} (the default) only the newest version the scan returns is
 * tested, and a mismatch leaves the family's part of the row at once; otherwise any returned
 * version that matches keeps the row. The column is recognized, and its value compared, in place.
 */
public final class SingleColumnValueFilter extends Filter {

  private final FixedColumn column;
  private final CompareOperator operator;
  private final ByteArrayComparable comparator;
  private boolean filterIfMissing;
  private boolean latestVersionOnly = true;
  private boolean foundColumn;
  private boolean matchedColumn;

  /**
   * @param family the column's family (copied; not empty)
   * @param qualifier the column's qualifier (copied; may be empty)
   * @param operator how the value must relate to the comparator's; not {@link
   *     CompareOperator#NO_OP}
   * @param comparator what the value is compared with
   * @throws NullPointerException if any argument is null
   * @throws IllegalArgumentException if the family is empty, the operator is NO_OP, or the operator
   *     asks for an order the comparator does not give
   */
  public SingleColumnValueFilter(
      byte[] family, byte[] qualifier, CompareOperator operator, ByteArrayComparable comparator) {
    this.column =
        new FixedColumn(
            Objects.requireNonNull(family, "family"),
            Objects.requireNonNull(qualifier, "qualifier"));
    this.operator = Objects.requireNonNull(operator, "operator");
    this.comparator = Objects.requireNonNull(comparator, "comparator");
    if (family.length == 0) {
      throw new IllegalArgumentException("SingleColumnValueFilter: the family is empty");
    }
    if (operator == CompareOperator.NO_OP) {
      throw new IllegalArgumentException(
          "SingleColumnValueFilter: NO_OP compares nothing; name a comparison");
    }
    CompareFilter.checkOperator("SingleColumnValueFilter", operator, comparator);
  }

  /** A copy of the column's family. */
  public byte[] family() {
    return column.family();
  }

  /** A copy of the column's qualifier. */
  public byte[] qualifier() {
    return column.qualifier();
  }

  public CompareOperator operator() {
    return operator;
  }

  public ByteArrayComparable comparator() {
    return comparator;
  }

  /** Whether a row without the column is dropped (default false: kept). */
  public void setFilterIfMissing(boolean filterIfMissing) {
    this.filterIfMissing = filterIfMissing;
  }

  public boolean filterIfMissing() {
    return filterIfMissing;
  }

  /** Whether only the newest returned version is tested (default true), or any of them. */
  public void setLatestVersionOnly(boolean latestVersionOnly) {
    this.latestVersionOnly = latestVersionOnly;
  }

  public boolean latestVersionOnly() {
    return latestVersionOnly;
  }

  @Override
  public void reset() {
    foundColumn = false;
    matchedColumn = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (matchedColumn) {
      return ReturnCode.INCLUDE;
    }
    if (latestVersionOnly && foundColumn) {
      return ReturnCode.NEXT_ROW;
    }
    if (!column.holds(cell)) {
      return ReturnCode.INCLUDE;
    }
    foundColumn = true;
    if (operator.accepts(
        comparator.compareTo(cell.valueSegment(), cell.valueOffset(), cell.valueLength()))) {
      matchedColumn = true;
      return ReturnCode.INCLUDE;
    }
    return latestVersionOnly ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return foundColumn ? !matchedColumn : filterIfMissing;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "SingleColumnValueFilter ("
        + column
        + ", "
        + operator
        + ", "
        + comparator
        + ", filterIfMissing="
        + filterIfMissing
        + ", latestVersionOnly="
        + latestVersionOnly
        + ")";
  }
}
