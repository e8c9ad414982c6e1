package dev.cellar.filter;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the comparisons mean, written the plain way round (the cell's bytes against the value, with
 * arrays and strings), for tests to hold the filters against.
 */
public final class FilterMeanings {

  private FilterMeanings() {}

  /** Whether {@code bytes}, a part of a cell, pass {@code operator} with {@code comparator}. */
  public static boolean passes(
      ByteArrayComparable comparator, CompareOperator operator, byte[] bytes) {
    byte[] value = comparator.value();
    if (comparator instanceof SubstringComparator) {
      boolean contains =
          new String(bytes, StandardCharsets.UTF_8)
              .toLowerCase(Locale.ROOT)
              .contains(new String(value, StandardCharsets.UTF_8));
      return switch (operator) {
        case EQUAL -> contains;
        case NOT_EQUAL -> !contains;
        default -> false;
      };
    }
    byte[] compared =
        comparator instanceof BinaryPrefixComparator
            ? Arrays.copyOf(bytes, Math.min(bytes.length, value.length))
            : bytes;
    int cellVersusValue = Arrays.compareUnsigned(compared, value);
    return switch (operator) {
      case LESS -> cellVersusValue < 0;
      case LESS_OR_EQUAL -> cellVersusValue <= 0;
      case EQUAL -> cellVersusValue == 0;
      case NOT_EQUAL -> cellVersusValue != 0;
      case GREATER_OR_EQUAL -> cellVersusValue >= 0;
      case GREATER -> cellVersusValue > 0;
      case NO_OP -> false;
    };
  }

  /** Whether {@code bytes} start with {@code prefix}. */
  public static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
