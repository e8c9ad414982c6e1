package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;

/**
 * Compares the value with the component of a range that starts {@code offset} bytes in and is as
 * long as the value, as unsigned bytes, as HBase's BinaryComponentComparator (for keys built of
 * fixed-width parts). Where the range ends before the component does, only the bytes it has are
 * compared, so a truncated component sorts before the value (HBase reads past the range there).
 */
public final class BinaryComponentComparator extends ByteArrayComparable {

  private final int offset;

  /**
   * @param value the component to compare with; copied
   * @param offset where the component starts in each range
   * @throws IllegalArgumentException if {@code offset} is negative
   */
  public BinaryComponentComparator(byte[] value, int offset) {
    super(value);
    if (offset < 0) {
      throw new IllegalArgumentException(
          "BinaryComponentComparator: the offset must be >= 0, was " + offset);
    }
    this.offset = offset;
  }

  public int offset() {
    return offset;
  }

  @Override
  public int compareTo(MemorySegment bytes, long at, int length) {
    int available = Math.max(0, Math.min(valueLength(), length - offset));
    long start = available == 0 ? at : at + offset;
    return Bytes.compare(valueSegment(), 0, valueLength(), bytes, start, available);
  }

  @Override
  public String toString() {
    return super.toString() + " at " + offset;
  }
}
