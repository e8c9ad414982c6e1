package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Compares 8-byte big-endian ranges with a long as signed numbers, as HBase's LongComparator. Its
 * value is the long's 8 bytes. A range of any other length cannot be read as a long: comparing it
 * throws, as HBase's does (the read then fails).
 */
public final class LongComparator extends ByteArrayComparable {

  private static final ValueLayout.OfLong BIG_ENDIAN_LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  private final long number;

  public LongComparator(long number) {
    super(Bytes.toBytes(number));
    this.number = number;
  }

  public long number() {
    return number;
  }

  /**
   * @throws IllegalArgumentException if {@code length} is not 8
   */
  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    if (length != Long.BYTES) {
      throw new IllegalArgumentException(
          "LongComparator: a " + length + "-byte value is not a long (8 bytes)");
    }
    return Long.compare(number, bytes.get(BIG_ENDIAN_LONG, offset));
  }

  @Override
  public String toString() {
    return "LongComparator " + number;
  }
}
