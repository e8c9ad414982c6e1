package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;

/**
 * One named column (family and qualifier, copied at construction) that a filter looks for in the
 * cells it is shown: the column of SingleColumnValueFilter and its exclude twin, of
 * ColumnValueFilter, and DependentColumnFilter's reference column. Immutable; {@link #holds}
 * allocates nothing.
 */
final class FixedColumn {

  private final byte[] family;
  private final byte[] qualifier;
  private final MemorySegment familySegment;
  private final MemorySegment qualifierSegment;

  FixedColumn(byte[] family, byte[] qualifier) {
    this.family = family.clone();
    this.qualifier = qualifier.clone();
    this.familySegment = MemorySegment.ofArray(this.family);
    this.qualifierSegment = MemorySegment.ofArray(this.qualifier);
  }

  /** Whether {@code cell} is in this column. */
  boolean holds(Cell cell) {
    return Bytes.equals(
            cell.segment(),
            cell.familyOffset(),
            cell.familyLength(),
            familySegment,
            0,
            family.length)
        && Bytes.equals(
            cell.segment(),
            cell.qualifierOffset(),
            cell.qualifierLength(),
            qualifierSegment,
            0,
            qualifier.length);
  }

  /** A copy of the family. */
  byte[] family() {
    return family.clone();
  }

  /** A copy of the qualifier. */
  byte[] qualifier() {
    return qualifier.clone();
  }

  /** {@code family, qualifier} as HBase's filters print them. */
  @Override
  public String toString() {
    return Bytes.toStringBinary(family) + ", " + Bytes.toStringBinary(qualifier);
  }
}
