package dev.cellar.filter;

import java.util.Objects;

/**
 * The test of a check-and-mutate with a comparator, as HBase's region applies it to the newest
 * value of the checked column. A comparator with an empty value (a BinaryComparator of nothing, a
 * NullComparator) asks about absence: it holds for an absent column, or one whose value is empty,
 * unless the operator is NOT_EQUAL, which holds for a non-empty value. Otherwise an absent column
 * fails, and a present one holds when {@code comparatorValue operator currentValue}, by {@link
 * ByteArrayComparable#compareTo} (HBase's way round: LESS holds when the comparator's value sorts
 * before the current one). Stateless.
 */
public final class ValueCondition {

  private ValueCondition() {}

  /**
   * Whether the check holds for {@code current}, the column's newest value (null when absent).
   *
   * @throws IllegalArgumentException for {@link CompareOperator#NO_OP}, which compares nothing
   */
  public static boolean holds(
      CompareOperator operator, ByteArrayComparable comparator, byte[] current) {
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(comparator, "comparator");
    if (operator == CompareOperator.NO_OP) {
      throw new IllegalArgumentException("a check-and-mutate cannot compare with NO_OP");
    }
    boolean askingAboutAbsence = comparator.valueLength() == 0;
    if (askingAboutAbsence) {
      boolean absentOrEmpty = current == null || current.length == 0;
      return absentOrEmpty == (operator != CompareOperator.NOT_EQUAL);
    }
    if (current == null) {
      return false;
    }
    int order = comparator.compareTo(current);
    return switch (operator) {
      case LESS -> order < 0;
      case LESS_OR_EQUAL -> order <= 0;
      case EQUAL -> order == 0;
      case NOT_EQUAL -> order != 0;
      case GREATER_OR_EQUAL -> order >= 0;
      case GREATER -> order > 0;
      case NO_OP -> throw new AssertionError();
    };
  }
}
