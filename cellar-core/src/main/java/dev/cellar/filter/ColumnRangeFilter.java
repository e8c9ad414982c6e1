package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;

/**
 * Keeps the cells whose qualifier lies in a range, as HBase's ColumnRangeFilter; either bound may
 * be absent (null) and each is inclusive or not. Qualifiers come sorted within a row and family, so
 * a qualifier before the lower bound is left with a seek hint to the bound (in the same row and
 * family), the excluded lower bound itself leaves its column, and a qualifier past the upper bound
 * ends the family's part of the row ({@link ReturnCode#NEXT_ROW}). Compares in place; only a hint
 * allocates.
 */
public final class ColumnRangeFilter extends Filter implements HintingFilter {

  private final byte[] min;
  private final boolean minInclusive;
  private final byte[] max;
  private final boolean maxInclusive;
  private final MemorySegment minSegment;
  private final MemorySegment maxSegment;

  /**
   * @param min the lower bound, or null for none; copied
   * @param minInclusive whether a qualifier equal to {@code min} is kept
   * @param max the upper bound, or null for none; copied
   * @param maxInclusive whether a qualifier equal to {@code max} is kept
   */
  public ColumnRangeFilter(byte[] min, boolean minInclusive, byte[] max, boolean maxInclusive) {
    this.min = min == null ? null : min.clone();
    this.minInclusive = minInclusive;
    this.max = max == null ? null : max.clone();
    this.maxInclusive = maxInclusive;
    this.minSegment = this.min == null ? null : MemorySegment.ofArray(this.min);
    this.maxSegment = this.max == null ? null : MemorySegment.ofArray(this.max);
  }

  /** A copy of the lower bound; null for none. */
  public byte[] min() {
    return min == null ? null : min.clone();
  }

  public boolean minInclusive() {
    return minInclusive;
  }

  /** A copy of the upper bound; null for none. */
  public byte[] max() {
    return max == null ? null : max.clone();
  }

  public boolean maxInclusive() {
    return maxInclusive;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    int versusMin = min == null ? 1 : compareQualifier(cell, minSegment, min.length);
    if (versusMin < 0) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    if (versusMin == 0 && !minInclusive) {
      return ReturnCode.NEXT_COL;
    }
    if (max == null) {
      return ReturnCode.INCLUDE;
    }
    int versusMax = compareQualifier(cell, maxSegment, max.length);
    return versusMax < 0 || (versusMax == 0 && maxInclusive)
        ? ReturnCode.INCLUDE
        : ReturnCode.NEXT_ROW;
  }

  private static int compareQualifier(Cell cell, MemorySegment bound, int length) {
    return Bytes.compare(
        cell.segment(), cell.qualifierOffset(), cell.qualifierLength(), bound, 0, length);
  }

  /** The first cell of the lower bound's column, in {@code current}'s row and family. */
  @Override
  public Cell nextCellHint(Cell current) {
    return KeyValue.firstOnColumn(
        current.rowArray(), current.familyArray(), min == null ? Bytes.EMPTY : min);
  }

  @Override
  public String toString() {
    return "ColumnRangeFilter "
        + (minInclusive ? "[" : "(")
        + (min == null ? "" : Bytes.toStringBinary(min))
        + ", "
        + (max == null ? "" : Bytes.toStringBinary(max))
        + (maxInclusive ? "]" : ")");
  }
}
