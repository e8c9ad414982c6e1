package dev.cellar.filter;

/**
 * How a comparison filter relates a cell's bytes to its comparator's value, as HBase's
 * CompareOperator: {@code LESS} keeps cells whose bytes sort before the value, and so on. {@link
 * #NO_OP} keeps nothing.
 */
public enum CompareOperator {
  LESS,
  LESS_OR_EQUAL,
  EQUAL,
  NOT_EQUAL,
  GREATER_OR_EQUAL,
  GREATER,
  NO_OP;

  /**
   * Whether a cell passes, given {@code order}, the comparator's value compared with the cell's
   * bytes ({@link ByteArrayComparable#compareTo}): negative when the value sorts first, so the cell
   * is greater.
   */
  boolean accepts(int order) {
    return switch (this) {
      case LESS -> order > 0;
      case LESS_OR_EQUAL -> order >= 0;
      case EQUAL -> order == 0;
      case NOT_EQUAL -> order != 0;
      case GREATER_OR_EQUAL -> order <= 0;
      case GREATER -> order < 0;
      case NO_OP -> false;
    };
  }

  /** Whether this operator asks for an order, rather than for equality only. */
  boolean isOrdering() {
    return this != EQUAL && this != NOT_EQUAL && this != NO_OP;
  }
}
