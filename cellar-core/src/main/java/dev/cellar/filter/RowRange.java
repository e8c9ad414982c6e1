package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A range of rows for {@link MultiRowRangeFilter}, as HBase's MultiRowRangeFilter.RowRange: a start
 * and a stop row, each inclusive or not; an empty start row means from the first row, an empty stop
 * row to the last. Immutable.
 */
public record RowRange(byte[] start, boolean startInclusive, byte[] stop, boolean stopInclusive) {

  /**
   * @param start the first row (null reads as empty: unbounded); copied
   * @param stop the last row (null reads as empty: unbounded); copied
   */
  public RowRange {
    start = start == null ? Bytes.EMPTY : start.clone();
    stop = stop == null ? Bytes.EMPTY : stop.clone();
  }

  @Override
  public byte[] start() {
    return start.clone();
  }

  @Override
  public byte[] stop() {
    return stop.clone();
  }

  byte[] startUnsafe() {
    return start;
  }

  byte[] stopUnsafe() {
    return stop;
  }

  boolean unboundedStop() {
    return stop.length == 0;
  }

  /**
   * Whether the range holds any row at all as HBase judges it (start before stop, or equal with an
   * inclusive stop).
   */
  boolean isValid() {
    int order = Bytes.compare(start, stop);
    return start.length == 0 || stop.length == 0 || order < 0 || (order == 0 && stopInclusive);
  }

  /** Whether the row of {@code length} bytes at {@code offset} is in the range. */
  boolean contains(MemorySegment row, long offset, int length) {
    int versusStart = compare(row, offset, length, start);
    if (versusStart < 0 || (versusStart == 0 && !startInclusive)) {
      return false;
    }
    if (unboundedStop()) {
      return true;
    }
    int versusStop = compare(row, offset, length, stop);
    return versusStop < 0 || (versusStop == 0 && stopInclusive);
  }

  /** Whether the row is past the range's stop. */
  boolean endsBefore(MemorySegment row, long offset, int length) {
    if (unboundedStop()) {
      return false;
    }
    int versusStop = compare(row, offset, length, stop);
    return versusStop > 0 || (versusStop == 0 && !stopInclusive);
  }

  static int compare(MemorySegment row, long offset, int length, byte[] bound) {
    return Bytes.compare(row, offset, length, MemorySegment.ofArray(bound), 0, bound.length);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RowRange range
        && java.util.Arrays.equals(start, range.start)
        && startInclusive == range.startInclusive
        && java.util.Arrays.equals(stop, range.stop)
        && stopInclusive == range.stopInclusive;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        java.util.Arrays.hashCode(start),
        startInclusive,
        java.util.Arrays.hashCode(stop),
        stopInclusive);
  }

  @Override
  public String toString() {
    return (startInclusive ? "[" : "(")
        + Bytes.toStringBinary(start)
        + ", "
        + Bytes.toStringBinary(stop)
        + (stopInclusive ? "]" : ")");
  }
}
