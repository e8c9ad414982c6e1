package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter.ReturnCode;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * RowFilter, FamilyFilter, QualifierFilter and ValueFilter with every comparator and operator:
 * against the plain meaning of each combination, and against HBase's own filters on random bytes.
 */
@ExtendWith(TestSeedExtension.class)
class CompareFilterTest {

  private static final List<byte[]> PROBES =
      List.of(
          Bytes.EMPTY,
          b("a"),
          b("ab"),
          b("abb"),
          b("abc"),
          b("abcd"),
          b("abd"),
          b("b"),
          b("ABC"),
          b("xBcx"),
          b("ab\u00e9"),
          new byte[] {'a', (byte) 0x80},
          new byte[] {(byte) 0xFF});

  private static final List<ByteArrayComparable> COMPARATORS =
      List.of(
          new BinaryComparator(b("abc")), new BinaryPrefixComparator(b("ab")),
          new BinaryComparator(Bytes.EMPTY), new BinaryPrefixComparator(Bytes.EMPTY),
          new SubstringComparator("Bc"), new SubstringComparator("\u00c9"));

  private static byte[] b(String text) {
    return Bytes.toBytes(text);
  }

  private static boolean valid(ByteArrayComparable comparator, CompareOperator operator) {
    return comparator.ordersBytes() || !operator.isOrdering();
  }

  private static KeyValue cell(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
    return KeyValue.create(row, family, qualifier, 1, CellType.PUT, value);
  }

  @Test
  void everyComparatorAndOperatorKeepsWhatItsNameSays() {
    byte[] f = b("f");
    for (ByteArrayComparable comparator : COMPARATORS) {
      for (CompareOperator operator : CompareOperator.values()) {
        if (!valid(comparator, operator)) {
          continue;
        }
        for (byte[] probe : PROBES) {
          boolean pass = FilterMeanings.passes(comparator, operator, probe);
          String what = comparator + " " + operator + " " + Bytes.toStringBinary(probe);

          RowFilter row = new RowFilter(operator, comparator);
          KeyValue inRow = cell(probe, f, b("q"), b("v"));
          row.reset();
          assertEquals(!pass, row.filterRowKey(inRow), what);
          assertEquals(
              pass ? ReturnCode.INCLUDE : ReturnCode.NEXT_ROW, row.filterCell(inRow), what);
          assertEquals(!pass, row.filterRow(), what);

          if (probe.length > 0) {
            assertEquals(
                pass ? ReturnCode.INCLUDE : ReturnCode.NEXT_ROW,
                new FamilyFilter(operator, comparator)
                    .filterCell(cell(b("r"), probe, b("q"), b("v"))),
                what);
          }
          assertEquals(
              pass ? ReturnCode.INCLUDE : ReturnCode.SKIP,
              new QualifierFilter(operator, comparator).filterCell(cell(b("r"), f, probe, b("v"))),
              what);
          assertEquals(
              pass ? ReturnCode.INCLUDE : ReturnCode.SKIP,
              new ValueFilter(operator, comparator).filterCell(cell(b("r"), f, b("q"), probe)),
              what);
        }
      }
    }
  }

  @Test
  void aRowFilterForgetsItsVerdictOnReset() {
    RowFilter filter = new RowFilter(CompareOperator.EQUAL, new BinaryComparator(b("r1")));
    KeyValue r1 = cell(b("r1"), b("f"), b("q"), b("v"));
    KeyValue r2 = cell(b("r2"), b("f"), b("q"), b("v"));
    filter.reset();
    assertEquals(true, filter.filterRowKey(r2));
    filter.reset();
    assertEquals(false, filter.filterRowKey(r1));
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(r1));
    assertEquals(false, filter.filterRow());
  }

  @Test
  void answersMatchHBaseOnRandomBytes(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    byte[] alphabet = {'a', 'b', 'c', 'A', 'B', 0, 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xA9};
    for (int round = 0; round < 20_000; round++) {
      byte[] value = randomBytes(random, alphabet, 3);
      ByteArrayComparable comparator =
          switch (random.nextInt(3)) {
            case 0 -> new BinaryComparator(value);
            case 1 -> new BinaryPrefixComparator(value);
            default -> new SubstringComparator(new String(value, StandardCharsets.UTF_8));
          };
      CompareOperator operator = CompareOperator.values()[random.nextInt(7)];
      if (!valid(comparator, operator)) {
        continue;
      }
      byte[] probe = randomBytes(random, alphabet, 5);
      KeyValue cell = cell(probe.length == 0 ? b("r") : probe, b("f"), probe, probe);
      String what =
          "round " + round + ": " + comparator + " " + operator + " " + Bytes.toStringBinary(probe);
      for (Filter filter :
          List.of(
              new RowFilter(operator, comparator),
              new QualifierFilter(operator, comparator),
              new ValueFilter(operator, comparator))) {
        org.apache.hadoop.hbase.filter.Filter twin = HBaseTwins.filter(filter);
        org.apache.hadoop.hbase.KeyValue twinCell = HBaseTwins.cell(cell);
        assertEquals(twin.filterRowKey(twinCell), filter.filterRowKey(cell), what);
        assertEquals(HBaseTwins.code(twin.filterCell(twinCell)), filter.filterCell(cell), what);
        assertEquals(twin.filterRow(), filter.filterRow(), what);
      }
      if (probe.length > 0) {
        KeyValue inFamily = cell(b("r"), probe, b("q"), b("v"));
        FamilyFilter family = new FamilyFilter(operator, comparator);
        assertEquals(
            HBaseTwins.code(HBaseTwins.filter(family).filterCell(HBaseTwins.cell(inFamily))),
            family.filterCell(inFamily),
            what);
      }
    }
  }

  private static byte[] randomBytes(SplittableRandom random, byte[] alphabet, int maxLength) {
    byte[] bytes = new byte[random.nextInt(maxLength + 1)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return bytes;
  }

  @Test
  void theSubstringComparatorIgnoresCaseAsHBaseDoes() {
    SubstringComparator comparator = new SubstringComparator("BaR");
    assertEquals("bar", Bytes.toString(comparator.value()));
    for (String text :
        List.of(
            "bar",
            "BAR",
            "xbArx",
            "foo bar",
            "ba",
            "",
            "b a r",
            "BAR\u00e9",
            "\u00e9bar",
            "B\u00c5R")) {
      org.apache.hadoop.hbase.filter.ByteArrayComparable twin = HBaseTwins.comparator(comparator);
      byte[] bytes = b(text);
      assertEquals(twin.compareTo(bytes), comparator.compareTo(bytes), text);
    }
    for (String substring : List.of("\u212a", "\u0130", "STRASSE", "\u00df", "k")) {
      SubstringComparator unicode = new SubstringComparator(substring);
      for (String text :
          List.of("\u212a", "k", "K", "\u0130x", "i\u0307", "stra\u00dfe", "STRASSE", "i")) {
        byte[] bytes = b(text);
        assertEquals(
            HBaseTwins.comparator(unicode).compareTo(bytes),
            unicode.compareTo(bytes),
            substring + " in " + text);
      }
    }
  }

  @Test
  void argumentsAreChecked() {
    BinaryComparator comparator = new BinaryComparator(b("v"));
    assertEquals(
        "operator",
        assertThrows(NullPointerException.class, () -> new ValueFilter(null, comparator))
            .getMessage());
    assertEquals(
        "comparator",
        assertThrows(NullPointerException.class, () -> new RowFilter(CompareOperator.EQUAL, null))
            .getMessage());
    assertEquals(
        "comparator value",
        assertThrows(NullPointerException.class, () -> new BinaryComparator(null)).getMessage());
    assertEquals(
        "substring",
        assertThrows(NullPointerException.class, () -> new SubstringComparator(null)).getMessage());
    IllegalArgumentException ordered =
        assertThrows(
            IllegalArgumentException.class,
            () -> new QualifierFilter(CompareOperator.LESS, new SubstringComparator("x")));
    assertEquals(
        "QualifierFilter: SubstringComparator only tells a match from a mismatch, so it"
            + " takes EQUAL or NOT_EQUAL, not LESS",
        ordered.getMessage());
  }

  @Test
  void comparatorsCopyTheirValue() {
    byte[] value = b("abc");
    BinaryComparator comparator = new BinaryComparator(value);
    value[0] = 'z';
    comparator.value()[1] = 'z';
    assertEquals("abc", Bytes.toString(comparator.value()));
  }

  @Test
  void describesItself() {
    assertEquals(
        "ValueFilter (GREATER, BinaryComparator a\\x00)",
        new ValueFilter(CompareOperator.GREATER, new BinaryComparator(new byte[] {'a', 0}))
            .toString());
    assertEquals(
        "RowFilter (EQUAL, BinaryPrefixComparator r1)",
        new RowFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(b("r1"))).toString());
    assertEquals(
        "FamilyFilter (NOT_EQUAL, SubstringComparator abc)",
        new FamilyFilter(CompareOperator.NOT_EQUAL, new SubstringComparator("ABC")).toString());
    assertEquals(
        "QualifierFilter (NO_OP, BinaryComparator q)",
        new QualifierFilter(CompareOperator.NO_OP, new BinaryComparator(b("q"))).toString());
  }
}
