package dev.cellar.filter;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The base of filters that keep a cell when one of its parts (row, family, qualifier or value)
 * stands in the relation its {@link CompareOperator} names to its comparator's value, as HBase's
 * CompareFilter. {@link CompareOperator#NO_OP} keeps nothing. The part is read in place.
 */
public abstract class CompareFilter extends Filter {

  private final CompareOperator operator;
  private final ByteArrayComparable comparator;

  /**
   * @throws NullPointerException if either argument is null
   * @throws IllegalArgumentException if {@code operator} asks for an order that {@code comparator}
   *     does not give (LESS with a SubstringComparator)
   */
  protected CompareFilter(CompareOperator operator, ByteArrayComparable comparator) {
    this.operator = Objects.requireNonNull(operator, "operator");
    this.comparator = Objects.requireNonNull(comparator, "comparator");
    checkOperator(getClass().getSimpleName(), operator, comparator);
  }

  static void checkOperator(
      String filter, CompareOperator operator, ByteArrayComparable comparator) {
    if (operator.isOrdering() && !comparator.ordersBytes()) {
      throw new IllegalArgumentException(
          filter
              + ": "
              + comparator.getClass().getSimpleName()
              + " only tells a match from a mismatch, so it takes EQUAL or NOT_EQUAL, not "
              + operator);
    }
  }

  public final CompareOperator operator() {
    return operator;
  }

  public final ByteArrayComparable comparator() {
    return comparator;
  }

  /** Whether {@code length} bytes at {@code offset} of {@code bytes} pass the comparison. */
  protected final boolean passes(MemorySegment bytes, long offset, int length) {
    return operator != CompareOperator.NO_OP
        && operator.accepts(comparator.compareTo(bytes, offset, length));
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + " (" + operator + ", " + comparator + ")";
  }
}
