package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryPrefixComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.FamilyFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.FilterList.Operator;
import dev.cellar.filter.FilterMeanings;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.ValueFilter;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every filter run through region scanners over random data (versions, delete markers, time ranges,
 * TTL, column selection, several sources and families), held against {@link ReadSemanticsOracle}'s
 * rows post-filtered by a plain statement of what the filter means: a predicate on cells for the
 * per-cell filters and their lists, a predicate on the row's returned cells for
 * SingleColumnValueFilter, the first rows for PageFilter. Seeds are printed.
 *
 * <p>HBase's filters are not all order-free: a MUST_PASS_ALL list stops showing a cell once a
 * member rejects it, and a filter that skips ahead hides cells from the others. The random lists
 * are built so that the plain meaning is what HBase does: the per-cell filters are honest (what
 * they skip they would reject), a SingleColumnValueFilter comes first in its list and shares it
 * only with filters that drop whole rows or single cells, and a PageFilter comes last.
 */
@ExtendWith(TestSeedExtension.class)
class RegionScannerFilterTest {

  private static final byte[][] FAMILIES = {b("a"), b("b")};
  private static final String[] ROWS = {
    "a", "r", "r0", "r01", "r1", "r10", "r11", "r12", "r2", "r20", "s", "s1"
  };
  private static final String[] QUALIFIERS = {"c", "q", "q0", "q1", "q10", "q1z", "q2", "qq"};
  private static final String[] VALUES = {"", "v0", "v1", "v2", "V1", "x", "xv1"};
  private static final CellType[] TYPES = {
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.DELETE,
    CellType.DELETE_COLUMN,
    CellType.DELETE_FAMILY,
    CellType.DELETE_FAMILY_VERSION
  };

  private static byte[] b(String text) {
    return Bytes.toBytes(text);
  }

  private static String pick(SplittableRandom random, String... from) {
    return from[random.nextInt(from.length)];
  }

  private static List<KeyValue> randomCells(SplittableRandom random, int count) {
    List<KeyValue> cells = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CellType type = TYPES[random.nextInt(TYPES.length)];
      byte[] qualifier =
          type == CellType.DELETE_FAMILY || type == CellType.DELETE_FAMILY_VERSION
              ? Bytes.EMPTY
              : b(pick(random, QUALIFIERS));
      byte[] value = type == CellType.PUT ? b(pick(random, VALUES)) : Bytes.EMPTY;
      cells.add(
          KeyValue.create(
                  b(pick(random, ROWS)),
                  FAMILIES[random.nextInt(2)],
                  qualifier,
                  1 + random.nextInt(8),
                  type,
                  value)
              .withSequenceId(i + 1));
    }
    return cells;
  }

  private static ScanSpec randomSpec(SplittableRandom random, Filter filter) {
    List<byte[]> qualifiers = null;
    if (random.nextInt(4) == 0) {
      qualifiers = new ArrayList<>();
      for (String qualifier : QUALIFIERS) {
        if (random.nextBoolean()) {
          qualifiers.add(b(qualifier));
        }
      }
      if (qualifiers.isEmpty()) {
        qualifiers.add(b("q1"));
      }
    }
    long min = random.nextInt(5) == 0 ? random.nextInt(4) : 0;
    long max = random.nextInt(5) == 0 ? min + 1 + random.nextInt(8) : Long.MAX_VALUE;
    long ttl = random.nextInt(5) == 0 ? 1 + random.nextInt(8) : Long.MAX_VALUE;
    return new ScanSpec(
        qualifiers, 1 + random.nextInt(3), min, max, ttl, random.nextInt(2), 10, filter);
  }

  /** A filter to run and what the scan must then return, given the unfiltered rows. */
  private record Case(Filter filter, UnaryOperator<List<List<Cell>>> expected) {}

  /** A per-cell filter and the cells it means to keep. */
  private record Pure(Filter filter, Predicate<Cell> keeps) {}

  private static ByteArrayComparable comparator(SplittableRandom random, String... values) {
    byte[] value = b(pick(random, values));
    return switch (random.nextInt(3)) {
      case 0 -> new BinaryComparator(value);
      case 1 -> new BinaryPrefixComparator(value);
      default -> new SubstringComparator(Bytes.toString(value));
    };
  }

  private static CompareOperator operator(
      SplittableRandom random, ByteArrayComparable comparator, boolean noOp) {
    if (comparator instanceof SubstringComparator) {
      return random.nextBoolean() ? CompareOperator.EQUAL : CompareOperator.NOT_EQUAL;
    }
    return CompareOperator.values()[random.nextInt(noOp ? 7 : 6)];
  }

  /** A filter of whole rows by key, or of single cells, that hides nothing from the others. */
  private static Pure rowOrCellFilter(SplittableRandom random) {
    switch (random.nextInt(4)) {
      case 0 -> {
        ByteArrayComparable comparator = comparator(random, "r", "r1", "r10", "s");
        CompareOperator operator = operator(random, comparator, true);
        return new Pure(
            new RowFilter(operator, comparator),
            cell -> FilterMeanings.passes(comparator, operator, cell.rowArray()));
      }
      case 1 -> {
        byte[] prefix = b(pick(random, "", "r", "r1", "r10", "s", "z"));
        return new Pure(
            new PrefixFilter(prefix), cell -> FilterMeanings.startsWith(cell.rowArray(), prefix));
      }
      case 2 -> {
        ByteArrayComparable comparator = comparator(random, "q", "q1", "q10", "c");
        CompareOperator operator = operator(random, comparator, true);
        return new Pure(
            new QualifierFilter(operator, comparator),
            cell -> FilterMeanings.passes(comparator, operator, cell.qualifierArray()));
      }
      default -> {
        ByteArrayComparable comparator = comparator(random, "v", "v1", "V1", "x", "");
        CompareOperator operator = operator(random, comparator, true);
        return new Pure(
            new ValueFilter(operator, comparator),
            cell -> FilterMeanings.passes(comparator, operator, cell.valueArray()));
      }
    }
  }

  private static Pure pure(SplittableRandom random, int depth) {
    int kind = random.nextInt(depth < 2 ? 8 : 6);
    switch (kind) {
      case 0, 1 -> {
        return rowOrCellFilter(random);
      }
      case 2 -> {
        ByteArrayComparable comparator = comparator(random, "a", "b");
        CompareOperator operator = operator(random, comparator, true);
        return new Pure(
            new FamilyFilter(operator, comparator),
            cell -> FilterMeanings.passes(comparator, operator, cell.familyArray()));
      }
      case 3, 4 -> {
        byte[] prefix = b(pick(random, "", "q", "q1", "q10", "c", "z"));
        return new Pure(
            new ColumnPrefixFilter(prefix),
            cell -> FilterMeanings.startsWith(cell.qualifierArray(), prefix));
      }
      case 5 -> {
        return random.nextInt(4) == 0
            ? new Pure(new FilterAllFilter(), cell -> false)
            : rowOrCellFilter(random);
      }
      default -> {
        List<Pure> members = new ArrayList<>();
        int count = random.nextInt(4);
        for (int i = 0; i < count; i++) {
          members.add(pure(random, depth + 1));
        }
        boolean all = random.nextBoolean();
        Filter list =
            new FilterList(
                all ? Operator.MUST_PASS_ALL : Operator.MUST_PASS_ONE,
                members.stream().map(Pure::filter).toList());
        Predicate<Cell> keeps =
            all || members.isEmpty()
                ? cell -> members.stream().allMatch(member -> member.keeps().test(cell))
                : cell -> members.stream().anyMatch(member -> member.keeps().test(cell));
        return new Pure(list, keeps);
      }
    }
  }

  private static List<List<Cell>> keepCells(List<List<Cell>> rows, Predicate<Cell> keeps) {
    List<List<Cell>> kept = new ArrayList<>();
    for (List<Cell> row : rows) {
      List<Cell> cells = row.stream().filter(keeps).toList();
      if (!cells.isEmpty()) {
        kept.add(cells);
      }
    }
    return kept;
  }

  private static List<List<Cell>> firstRows(List<List<Cell>> rows, long pageSize) {
    return rows.subList(0, (int) Math.min(pageSize, rows.size()));
  }

  /** A SingleColumnValueFilter and whether it keeps a row, given the row's returned cells. */
  private record ColumnValue(SingleColumnValueFilter filter, Predicate<List<Cell>> keeps) {}

  private static ColumnValue columnValue(SplittableRandom random) {
    byte[] family = FAMILIES[random.nextInt(2)];
    byte[] qualifier = b(pick(random, QUALIFIERS));
    ByteArrayComparable comparator = comparator(random, "v", "v1", "V1", "x", "");
    CompareOperator operator = operator(random, comparator, false);
    SingleColumnValueFilter filter =
        new SingleColumnValueFilter(family, qualifier, operator, comparator);
    boolean filterIfMissing = random.nextBoolean();
    boolean latestVersionOnly = random.nextBoolean();
    filter.setFilterIfMissing(filterIfMissing);
    filter.setLatestVersionOnly(latestVersionOnly);
    Predicate<Cell> inColumn =
        cell ->
            Arrays.equals(cell.familyArray(), family)
                && Arrays.equals(cell.qualifierArray(), qualifier);
    Predicate<Cell> matches =
        cell -> FilterMeanings.passes(comparator, operator, cell.valueArray());
    return new ColumnValue(
        filter,
        row -> {
          List<Cell> versions = row.stream().filter(inColumn).toList();
          if (versions.isEmpty()) {
            return !filterIfMissing;
          }
          return latestVersionOnly
              ? matches.test(versions.get(0))
              : versions.stream().anyMatch(matches);
        });
  }

  private static Case randomCase(SplittableRandom random) {
    switch (random.nextInt(6)) {
      case 0, 1 -> {
        Pure pure = pure(random, 0);
        return new Case(pure.filter(), rows -> keepCells(rows, pure.keeps()));
      }
      case 2 -> {
        ColumnValue columnValue = columnValue(random);
        return new Case(
            columnValue.filter(), rows -> rows.stream().filter(columnValue.keeps()).toList());
      }
      case 3 -> {
        ColumnValue columnValue = columnValue(random);
        List<Filter> members = new ArrayList<>(List.of(columnValue.filter()));
        List<Pure> others = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          others.add(rowOrCellFilter(random));
        }
        others.forEach(other -> members.add(other.filter()));
        long pageSize = random.nextBoolean() ? 1 + random.nextInt(4) : -1;
        if (pageSize >= 0) {
          members.add(new PageFilter(pageSize));
        }
        Predicate<Cell> keeps = cell -> others.stream().allMatch(o -> o.keeps().test(cell));
        return new Case(
            new FilterList(Operator.MUST_PASS_ALL, members),
            rows -> {
              List<List<Cell>> kept =
                  keepCells(rows.stream().filter(columnValue.keeps()).toList(), keeps);
              return pageSize >= 0 ? firstRows(kept, pageSize) : kept;
            });
      }
      case 4 -> {
        long pageSize = random.nextInt(5);
        return new Case(new PageFilter(pageSize), rows -> firstRows(rows, pageSize));
      }
      default -> {
        Pure pure = pure(random, 1);
        long pageSize = random.nextInt(5);
        return new Case(
            new FilterList(Operator.MUST_PASS_ALL, pure.filter(), new PageFilter(pageSize)),
            rows -> firstRows(keepCells(rows, pure.keeps()), pageSize));
      }
    }
  }

  @Test
  void randomFiltersMatchTheOracleFilteredByTheirMeaning(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 600; round++) {
      List<KeyValue> cells = randomCells(random, 20 + random.nextInt(200));
      Case filterCase = randomCase(random);
      ScanSpec spec = randomSpec(random, filterCase.filter());
      byte[] start = random.nextInt(3) == 0 ? b(pick(random, ROWS)) : Bytes.EMPTY;
      byte[] stop = random.nextInt(3) == 0 ? b(pick(random, ROWS)) : Bytes.EMPTY;
      String what = "round " + round + " filter " + filterCase.filter() + " spec " + spec;
      List<List<String>> expected =
          ScanHarness.describe(
              filterCase.expected().apply(ReadSemanticsOracle.scanCells(cells, spec, start, stop)));
      List<List<String>> actual =
          ScanHarness.describe(
              ScanHarness.scan(
                  cells,
                  FAMILIES,
                  1 + random.nextInt(3),
                  spec,
                  start,
                  stop,
                  filterCase.filter(),
                  random));
      assertEquals(expected, actual, what);
    }
  }

  // ---------------------------------------------------------------- chosen cases

  private static KeyValue put(
      String row, String family, String qualifier, long timestamp, String value) {
    return KeyValue.create(b(row), b(family), b(qualifier), timestamp, CellType.PUT, b(value));
  }

  private static ScanSpec versions(int maxVersions, Filter filter) {
    return new ScanSpec(null, maxVersions, 0, Long.MAX_VALUE, Long.MAX_VALUE, 0, 10, filter);
  }

  private static List<String> rows(List<KeyValue> cells, ScanSpec spec) throws IOException {
    List<String> rows = new ArrayList<>();
    for (List<Cell> row :
        ScanHarness.scan(
            cells,
            FAMILIES,
            2,
            spec,
            Bytes.EMPTY,
            Bytes.EMPTY,
            spec.filter(),
            new SplittableRandom(7))) {
      StringBuilder text = new StringBuilder(Bytes.toString(row.get(0).rowArray())).append(':');
      for (Cell cell : row) {
        text.append(' ').append(Bytes.toString(cell.valueArray()));
      }
      rows.add(text.toString());
    }
    return rows;
  }

  /** Counts the rows whose key the scanner asks about. */
  private static final class RowsSeen extends Filter {
    int rows;

    @Override
    public boolean filterRowKey(Cell firstRowCell) {
      rows++;
      return false;
    }
  }

  @Test
  void aPrefixFilterSeeksToItsRowsAndEndsTheScanAfterThem() throws IOException {
    List<KeyValue> cells = new ArrayList<>();
    for (int row = 0; row < 40; row++) {
      String key = String.format("r%02d", row);
      cells.add(put(key, "a", "q", 1, key));
    }
    RowsSeen seen = new RowsSeen();
    PrefixFilter prefix = new PrefixFilter(b("r1"));
    List<String> rows =
        rows(cells, versions(1, new FilterList(Operator.MUST_PASS_ALL, prefix, seen)));
    assertEquals(10, rows.size());
    assertEquals("r10: r10", rows.get(0));
    assertEquals("r19: r19", rows.get(9));
    assertEquals(12, seen.rows, "r00, then a seek to r10, r10..r19, then r20 ends the scan");
    assertTrue(prefix.filterAllRemaining());
  }

  @Test
  void aSingleColumnValueFilterKeepsWholeRowsByOneColumn() throws IOException {
    List<KeyValue> cells =
        List.of(
            put("r1", "a", "q", 2, "yes"),
            put("r1", "a", "z", 1, "r1z"),
            put("r1", "b", "q", 1, "b"),
            put("r2", "a", "q", 2, "no"),
            put("r2", "a", "q", 1, "yes"),
            put("r2", "b", "x", 1, "b"),
            put("r3", "a", "p", 1, "r3p"),
            put("r3", "b", "q", 1, "yes"));
    assertEquals(
        List.of("r1: yes r1z b", "r3: r3p yes"), rows(cells, versions(3, scvf(false, true))));
    assertEquals(List.of("r1: yes r1z b"), rows(cells, versions(3, scvf(true, true))));
    assertEquals(
        List.of("r1: yes r1z b", "r2: no yes b", "r3: r3p yes"),
        rows(cells, versions(3, scvf(false, false))));
    assertEquals(
        List.of("r1: yes r1z b", "r3: r3p yes"), rows(cells, versions(1, scvf(false, false))));
  }

  private static SingleColumnValueFilter scvf(boolean filterIfMissing, boolean latestOnly) {
    SingleColumnValueFilter filter =
        new SingleColumnValueFilter(
            b("a"), b("q"), CompareOperator.EQUAL, new BinaryComparator(b("yes")));
    filter.setFilterIfMissing(filterIfMissing);
    filter.setLatestVersionOnly(latestOnly);
    return filter;
  }

  @Test
  void aColumnPrefixFilterSeeksWithinEachFamily() throws IOException {
    List<KeyValue> cells =
        List.of(
            put("r1", "a", "a", 1, "1aa"),
            put("r1", "a", "p", 1, "1ap"),
            put("r1", "a", "pp", 1, "1app"),
            put("r1", "a", "q", 1, "1aq"),
            put("r1", "b", "b", 1, "1bb"),
            put("r1", "b", "pz", 1, "1bpz"),
            put("r2", "a", "o", 1, "2ao"),
            put("r2", "b", "p", 2, "2bp2"),
            put("r2", "b", "p", 1, "2bp1"));
    assertEquals(
        List.of("r1: 1ap 1app 1bpz", "r2: 2bp2 2bp1"),
        rows(cells, versions(2, new ColumnPrefixFilter(b("p")))));
    ScanSpec explicit =
        new ScanSpec(
            List.of(b("a"), b("pp"), b("pz")),
            1,
            0,
            Long.MAX_VALUE,
            Long.MAX_VALUE,
            0,
            10,
            new ColumnPrefixFilter(b("p")));
    assertEquals(List.of("r1: 1app 1bpz"), rows(cells, explicit));
  }

  @Test
  void aPageFilterLimitsTheRowsThatSurviveTheOtherFilters() throws IOException {
    List<KeyValue> cells = new ArrayList<>();
    for (int row = 0; row < 10; row++) {
      cells.add(put("r" + row, "a", "q", 1, row % 2 == 0 ? "even" : "odd"));
    }
    assertEquals(
        List.of("r0: even", "r1: odd", "r2: even"), rows(cells, versions(1, new PageFilter(3))));
    Filter evenPage =
        new FilterList(
            Operator.MUST_PASS_ALL,
            new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("even"))),
            new PageFilter(3));
    assertEquals(List.of("r0: even", "r2: even", "r4: even"), rows(cells, versions(1, evenPage)));
  }

  @Test
  void nestedListsOfBothOperators() throws IOException {
    List<KeyValue> cells =
        List.of(
            put("r1", "a", "q1", 1, "x"),
            put("r1", "a", "q2", 1, "y"),
            put("r1", "b", "q1", 1, "z"),
            put("r2", "a", "q1", 1, "y"),
            put("r2", "b", "z", 1, "x"));
    Filter filter =
        new FilterList(
            Operator.MUST_PASS_ONE,
            new FilterList(
                Operator.MUST_PASS_ALL,
                new ColumnPrefixFilter(b("q1")),
                new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(b("a")))),
            new FilterList(
                Operator.MUST_PASS_ALL,
                new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("x"))),
                new RowFilter(CompareOperator.GREATER, new BinaryComparator(b("r1")))));
    assertEquals(List.of("r1: x", "r2: y x"), rows(cells, versions(1, filter)));
  }

  @Test
  void aFilterAllFilterReturnsNothing() throws IOException {
    SplittableRandom random = new SplittableRandom(3);
    List<KeyValue> cells = randomCells(random, 300);
    assertEquals(List.of(), rows(cells, versions(3, new FilterAllFilter())));
  }
}
