package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter.ReturnCode;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SingleColumnValueFilter over one row at a time (the cells a scan shows it, in order): the column
 * present and matching or not, missing with and without filterIfMissing, the newest version only or
 * any version; and against HBase's filter on random rows.
 */
@ExtendWith(TestSeedExtension.class)
class SingleColumnValueFilterTest {

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  private static KeyValue put(String family, String qualifier, long timestamp, String value) {
    return KeyValue.create(
        Bytes.toBytes("r"),
        Bytes.toBytes(family),
        Bytes.toBytes(qualifier),
        timestamp,
        CellType.PUT,
        Bytes.toBytes(value));
  }

  private static SingleColumnValueFilter equalTo(String value) {
    return new SingleColumnValueFilter(
        F, Q, CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes(value)));
  }

  /**
   * Shows the row to the filter as a store scanner would (leaving the family on NEXT_ROW) and
   * returns the values kept, or null if the row is dropped (left empty, or by filterRow).
   */
  private static List<String> row(SingleColumnValueFilter filter, KeyValue... cells) {
    filter.reset();
    List<String> kept = new ArrayList<>();
    String leftFamily = null;
    for (KeyValue cell : cells) {
      String family = Bytes.toString(cell.familyArray());
      if (family.equals(leftFamily)) {
        continue;
      }
      ReturnCode code = filter.filterCell(cell);
      if (code == ReturnCode.INCLUDE) {
        kept.add(Bytes.toString(cell.valueArray()));
      } else {
        assertEquals(ReturnCode.NEXT_ROW, code);
        leftFamily = family;
      }
    }
    return kept.isEmpty() || filter.filterRow() ? null : kept;
  }

  @Test
  void keepsTheRowWhenTheColumnMatches() {
    SingleColumnValueFilter filter = equalTo("yes");
    assertEquals(
        List.of("a", "yes", "z", "g"),
        row(
            filter,
            put("f", "a", 1, "a"),
            put("f", "q", 1, "yes"),
            put("f", "z", 1, "z"),
            put("g", "a", 1, "g")));
    assertEquals(
        null,
        row(
            filter,
            put("f", "a", 1, "a"),
            put("f", "q", 1, "no"),
            put("f", "z", 1, "z"),
            put("g", "a", 1, "g")));
  }

  @Test
  void aMissingColumnKeepsTheRowUnlessFilterIfMissing() {
    SingleColumnValueFilter filter = equalTo("yes");
    KeyValue[] withoutColumn = {
      put("f", "a", 1, "a"), put("f", "r", 1, "r"), put("q", "q", 1, "other family")
    };
    assertEquals(List.of("a", "r", "other family"), row(filter, withoutColumn));
    filter.setFilterIfMissing(true);
    assertEquals(true, filter.filterIfMissing());
    assertEquals(null, row(filter, withoutColumn));
    assertEquals(List.of("yes"), row(filter, put("f", "q", 1, "yes")));
  }

  @Test
  void onlyTheNewestVersionCountsUnlessAskedOtherwise() {
    KeyValue[] olderMatches = {
      put("f", "q", 2, "no"), put("f", "q", 1, "yes"), put("f", "z", 1, "z")
    };
    KeyValue[] newestMatches = {
      put("f", "q", 2, "yes"), put("f", "q", 1, "no"), put("f", "z", 1, "z")
    };
    SingleColumnValueFilter latest = equalTo("yes");
    assertEquals(true, latest.latestVersionOnly());
    assertEquals(null, row(latest, olderMatches));
    assertEquals(List.of("yes", "no", "z"), row(latest, newestMatches));

    SingleColumnValueFilter any = equalTo("yes");
    any.setLatestVersionOnly(false);
    assertEquals(List.of("no", "yes", "z"), row(any, olderMatches));
    assertEquals(List.of("yes", "no", "z"), row(any, newestMatches));
    assertEquals(null, row(any, put("f", "q", 2, "no"), put("f", "q", 1, "nope")));
  }

  @Test
  void comparesWithAnyComparatorAndOperator() {
    SingleColumnValueFilter filter =
        new SingleColumnValueFilter(
            F, Q, CompareOperator.LESS, new BinaryPrefixComparator(Bytes.toBytes("m")));
    assertEquals(List.of("abc"), row(filter, put("f", "q", 1, "abc")));
    assertEquals(null, row(filter, put("f", "q", 1, "mzz")));
    SingleColumnValueFilter substring =
        new SingleColumnValueFilter(
            F, Q, CompareOperator.NOT_EQUAL, new SubstringComparator("BAD"));
    assertEquals(List.of("good"), row(substring, put("f", "q", 1, "good")));
    assertEquals(null, row(substring, put("f", "q", 1, "so bad")));
  }

  @Test
  void answersMatchHBaseOnRandomRows(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    String[] columns = {"a", "q", "z"};
    String[] values = {"m", "n", "o"};
    for (int round = 0; round < 3_000; round++) {
      CompareOperator operator = CompareOperator.values()[random.nextInt(6)];
      SingleColumnValueFilter filter =
          new SingleColumnValueFilter(
              F, Q, operator, new BinaryComparator(Bytes.toBytes(values[random.nextInt(3)])));
      filter.setFilterIfMissing(random.nextBoolean());
      filter.setLatestVersionOnly(random.nextBoolean());
      org.apache.hadoop.hbase.filter.Filter twin = HBaseTwins.filter(filter);
      filter.reset();
      twin.reset();
      String what = "round " + round + ": " + filter;
      for (String family : new String[] {"f", "g"}) {
        for (String column : columns) {
          if (random.nextInt(3) == 0) {
            continue;
          }
          for (int version = 3; version > 0; version--) {
            if (random.nextBoolean()) {
              KeyValue cell = put(family, column, version, values[random.nextInt(3)]);
              assertEquals(
                  HBaseTwins.code(twin.filterCell(HBaseTwins.cell(cell))),
                  filter.filterCell(cell),
                  what + " on " + cell);
            }
          }
        }
      }
      assertEquals(twin.filterRow(), filter.filterRow(), what);
    }
  }

  @Test
  void argumentsAreCheckedAndTheFilterDescribesItself() {
    BinaryComparator comparator = new BinaryComparator(Bytes.toBytes("v"));
    assertEquals(
        "family",
        assertThrows(
                NullPointerException.class,
                () -> new SingleColumnValueFilter(null, Q, CompareOperator.EQUAL, comparator))
            .getMessage());
    assertEquals(
        "qualifier",
        assertThrows(
                NullPointerException.class,
                () -> new SingleColumnValueFilter(F, null, CompareOperator.EQUAL, comparator))
            .getMessage());
    assertEquals(
        "SingleColumnValueFilter: the family is empty",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new SingleColumnValueFilter(Bytes.EMPTY, Q, CompareOperator.EQUAL, comparator))
            .getMessage());
    assertEquals(
        "SingleColumnValueFilter: NO_OP compares nothing; name a comparison",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SingleColumnValueFilter(F, Q, CompareOperator.NO_OP, comparator))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new SingleColumnValueFilter(
                F, Q, CompareOperator.GREATER, new SubstringComparator("x")));
    SingleColumnValueFilter filter = equalTo("v");
    filter.setFilterIfMissing(true);
    assertEquals(
        "SingleColumnValueFilter (f, q, EQUAL, BinaryComparator v, filterIfMissing=true,"
            + " latestVersionOnly=true)",
        filter.toString());
  }
}
