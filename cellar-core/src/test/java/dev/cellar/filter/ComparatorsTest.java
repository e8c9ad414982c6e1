package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The comparators beyond the binary ones (regex, bit, null, long, decimal, component) against
 * HBase's own on random ranges: the same order, or both refusing the range.
 */
@ExtendWith(TestSeedExtension.class)
class ComparatorsTest {

  private static final byte[] ALPHABET = {'a', 'b', 'A', '1', '\n', 0, (byte) 0x80, (byte) 0xFF};

  @Test
  void everyComparatorAnswersAsHBasesDoes(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 20_000; round++) {
      ByteArrayComparable comparator = comparator(random);
      org.apache.hadoop.hbase.filter.ByteArrayComparable twin = HBaseTwins.comparator(comparator);
      byte[] range = range(random);
      int pad = random.nextInt(3);
      byte[] padded = new byte[range.length + 2 * pad];
      System.arraycopy(range, 0, padded, pad, range.length);
      String what = "round " + round + ": " + comparator + " on " + Bytes.toStringBinary(range);
      if (comparator instanceof BinaryComponentComparator component
          && component.offset() + component.valueLength() > range.length) {
        // HBase reads past the range here; Cellar compares what there is.
        byte[] present =
            java.util.Arrays.copyOfRange(
                range, Math.min(component.offset(), range.length), range.length);
        assertEquals(
            Integer.signum(java.util.Arrays.compareUnsigned(component.value(), present)),
            Integer.signum(comparator.compareTo(range)),
            what);
        continue;
      }
      Integer expected;
      try {
        expected = Integer.signum(twin.compareTo(padded, pad, range.length));
      } catch (RuntimeException e) {
        expected = null;
      }
      if (expected == null) {
        assertThrows(RuntimeException.class, () -> comparator.compareTo(range), what);
      } else {
        assertEquals(
            expected,
            Integer.signum(
                comparator.compareTo(
                    java.lang.foreign.MemorySegment.ofArray(padded), pad, range.length)),
            what);
      }
    }
  }

  private static ByteArrayComparable comparator(SplittableRandom random) {
    return switch (random.nextInt(6)) {
      case 0 ->
          new RegexStringComparator(
              new String[] {"a.b", "^A", "1$", "(?i)ab", "a\\nb", ".*", "[0-9]+"}
                  [random.nextInt(7)],
              new int[] {0, Pattern.DOTALL, Pattern.CASE_INSENSITIVE, Pattern.MULTILINE}
                  [random.nextInt(4)],
              random.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
      case 1 ->
          new BitComparator(bytes(random, 2), BitComparator.BitwiseOp.values()[random.nextInt(3)]);
      case 2 -> new NullComparator();
      case 3 -> new LongComparator(random.nextInt(5) - 2L + (random.nextBoolean() ? 0 : 1L << 40));
      case 4 ->
          new BigDecimalComparator(
              new BigDecimal(BigInteger.valueOf(random.nextInt(-300, 300)), random.nextInt(-2, 3)));
      default -> new BinaryComponentComparator(bytes(random, 2), random.nextInt(3));
    };
  }

  private static byte[] range(SplittableRandom random) {
    return switch (random.nextInt(4)) {
      case 0 -> Bytes.toBytes(random.nextInt(5) - 2L + (random.nextBoolean() ? 0 : 1L << 40));
      case 1 ->
          BigDecimalComparator.toBytes(
              new BigDecimal(BigInteger.valueOf(random.nextInt(-300, 300)), random.nextInt(-2, 3)));
      default -> bytes(random, 5);
    };
  }

  private static byte[] bytes(SplittableRandom random, int maxLength) {
    byte[] bytes = new byte[random.nextInt(maxLength + 1)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return bytes;
  }

  @Test
  void matchOnlyComparatorsTakeEqualityOperatorsOnly() {
    for (ByteArrayComparable comparator :
        new ByteArrayComparable[] {
          new RegexStringComparator("a"),
          new BitComparator(new byte[] {1}, BitComparator.BitwiseOp.AND),
          new NullComparator()
        }) {
      assertFalse(comparator.ordersBytes(), comparator.toString());
      assertThrows(
          IllegalArgumentException.class,
          () -> new ValueFilter(CompareOperator.LESS, comparator),
          comparator.toString());
    }
    assertTrue(new LongComparator(3).ordersBytes());
    assertTrue(new BigDecimalComparator(BigDecimal.ONE).ordersBytes());
    assertTrue(new BinaryComponentComparator(new byte[] {1}, 2).ordersBytes());
  }

  @Test
  void decimalsCompareByNumber() {
    BigDecimalComparator one = new BigDecimalComparator(new BigDecimal("1.0"));
    assertEquals(0, one.compareTo(BigDecimalComparator.toBytes(new BigDecimal("1.00"))));
    assertEquals(
        org.apache.hadoop.hbase.util.Bytes.toBytes(new BigDecimal("-12.345")).length,
        BigDecimalComparator.toBytes(new BigDecimal("-12.345")).length);
  }
}
