package dev.cellar.filter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Tests a byte range against a bit mask, as HBase's BitComparator: a range of the mask's length
 * matches ({@link #compareTo} answers 0) when combining it with the mask byte by byte by the {@link
 * BitwiseOp} leaves some bit set; a range of another length, or one that leaves no bit set, answers
 * 1. Only EQUAL and NOT_EQUAL make sense with it. Compares in place.
 */
public final class BitComparator extends ByteArrayComparable {

  /** How the mask combines with a range, as HBase's BitComparator.BitwiseOp. */
  public enum BitwiseOp {
    AND,
    OR,
    XOR
  }

  private final BitwiseOp operator;

  /**
   * @param mask the mask; copied
   * @param operator how it combines with a range
   */
  public BitComparator(byte[] mask, BitwiseOp operator) {
    super(mask);
    this.operator = Objects.requireNonNull(operator, "operator");
  }

  public BitwiseOp operator() {
    return operator;
  }

  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    if (length != valueLength()) {
      return 1;
    }
    MemorySegment mask = valueSegment();
    for (int i = 0; i < length; i++) {
      byte a = mask.get(ValueLayout.JAVA_BYTE, i);
      byte b = bytes.get(ValueLayout.JAVA_BYTE, offset + i);
      int combined =
          switch (operator) {
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
          };
      if ((combined & 0xFF) != 0) {
        return 0;
      }
    }
    return 1;
  }

  @Override
  public boolean ordersBytes() {
    return false;
  }

  @Override
  public String toString() {
    return super.toString() + " " + operator;
  }
}
