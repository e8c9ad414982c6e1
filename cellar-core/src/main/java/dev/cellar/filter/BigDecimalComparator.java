package dev.cellar.filter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * Compares ranges holding decimals with a {@link BigDecimal} by number ({@link
 * BigDecimal#compareTo}, so 1.0 equals 1.00), as HBase's BigDecimalComparator. A decimal is stored
 * HBase's way: its scale as a 4-byte big-endian int, then its unscaled value's two's-complement
 * bytes. A range shorter than 5 bytes holds no decimal: comparing it throws, as HBase's does.
 */
public final class BigDecimalComparator extends ByteArrayComparable {

  private final BigDecimal number;

  public BigDecimalComparator(BigDecimal number) {
    super(toBytes(Objects.requireNonNull(number, "number")));
    this.number = number;
  }

  public BigDecimal number() {
    return number;
  }

  /** HBase's encoding of a decimal (its Bytes.toBytes(BigDecimal)). */
  public static byte[] toBytes(BigDecimal number) {
    byte[] unscaled = number.unscaledValue().toByteArray();
    byte[] bytes = new byte[Integer.BYTES + unscaled.length];
    dev.cellar.cell.Bytes.putInt(bytes, 0, number.scale());
    System.arraycopy(unscaled, 0, bytes, Integer.BYTES, unscaled.length);
    return bytes;
  }

  /**
   * @throws IllegalArgumentException if the range is shorter than 5 bytes
   */
  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    if (length < Integer.BYTES + 1) {
      throw new IllegalArgumentException(
          "BigDecimalComparator: a " + length + "-byte value is not a decimal");
    }
    byte[] copy = new byte[length];
    MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, offset, copy, 0, length);
    int scale = dev.cellar.cell.Bytes.toInt(copy, 0);
    BigInteger unscaled = new BigInteger(copy, Integer.BYTES, length - Integer.BYTES);
    return number.compareTo(new BigDecimal(unscaled, scale));
  }

  @Override
  public String toString() {
    return "BigDecimalComparator " + number;
  }
}
