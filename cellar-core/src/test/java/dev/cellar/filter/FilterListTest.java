package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter.ReturnCode;
import dev.cellar.filter.FilterList.Operator;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * FilterList: the two merge tables, hints and row-level answers of each operator, nesting, and
 * random nested lists held against HBase's FilterList over random rows.
 */
@ExtendWith(TestSeedExtension.class)
class FilterListTest {

  private static final byte[] ROW = Bytes.toBytes("r");

  private static KeyValue cell(String family, String qualifier, long timestamp, String value) {
    return KeyValue.create(
        ROW,
        Bytes.toBytes(family),
        Bytes.toBytes(qualifier),
        timestamp,
        CellType.PUT,
        Bytes.toBytes(value));
  }

  private static KeyValue cell(String qualifier) {
    return cell("f", qualifier, 1, "v");
  }

  /** Answers every cell with one code, records what it was shown, hints at column "hint". */
  private static final class Scripted extends Filter {
    final List<String> shown = new ArrayList<>();
    ReturnCode answer;
    boolean dropRowKey;
    boolean done;
    boolean dropRow;
    String hintQualifier = "hint";

    Scripted(ReturnCode answer) {
      this.answer = answer;
    }

    @Override
    public boolean filterRowKey(Cell firstRowCell) {
      return dropRowKey;
    }

    @Override
    public ReturnCode filterCell(Cell cell) {
      shown.add(Bytes.toString(cell.qualifierArray()));
      return answer;
    }

    @Override
    public Cell nextCellHint(Cell current) {
      return KeyValue.firstOnColumn(
          current.rowArray(), current.familyArray(), Bytes.toBytes(hintQualifier));
    }

    @Override
    public boolean filterAllRemaining() {
      return done;
    }

    @Override
    public boolean filterRow() {
      return dropRow;
    }
  }

  private static ReturnCode hbaseMerge(String listClass, ReturnCode left, ReturnCode right)
      throws Exception {
    Class<?> type = Class.forName("org.apache.hadoop.hbase.filter." + listClass);
    Object list = type.getConstructor(List.class).newInstance(new ArrayList<>());
    Method merge =
        type.getDeclaredMethod(
            "mergeReturnCode",
            org.apache.hadoop.hbase.filter.Filter.ReturnCode.class,
            org.apache.hadoop.hbase.filter.Filter.ReturnCode.class);
    merge.setAccessible(true);
    return HBaseTwins.code(
        (org.apache.hadoop.hbase.filter.Filter.ReturnCode)
            merge.invoke(list, HBaseTwins.code(left), HBaseTwins.code(right)));
  }

  @Test
  void theMergeTablesAreHBases() throws Exception {
    for (ReturnCode left : ReturnCode.values()) {
      for (ReturnCode right : ReturnCode.values()) {
        assertEquals(
            hbaseMerge("FilterListWithAND", left, right),
            ReturnCodes.all(left, right),
            "AND " + left + " " + right);
        assertEquals(
            hbaseMerge("FilterListWithOR", left, right),
            ReturnCodes.any(left, right),
            "OR " + left + " " + right);
      }
    }
  }

  @Test
  void mustPassAllSeeksToTheFarthestHintAndMustPassOneToTheNearest() {
    KeyValue current = cell("a");
    assertEquals(
        "m", hint(Operator.MUST_PASS_ONE, current, seeking("m"), prefix("p"), seeking("x")));
    assertEquals(
        "x", hint(Operator.MUST_PASS_ALL, current, seeking("x"), prefix("p"), seeking("m")));
    // Once the first seek has rejected the cell, only hinting members are still asked.
    assertEquals(
        "p", hint(Operator.MUST_PASS_ALL, current, seeking("m"), prefix("p"), seeking("x")));
  }

  private static Scripted seeking(String hintQualifier) {
    Scripted filter = new Scripted(ReturnCode.SEEK_NEXT_USING_HINT);
    filter.hintQualifier = hintQualifier;
    return filter;
  }

  private static ColumnPrefixFilter prefix(String prefix) {
    return new ColumnPrefixFilter(Bytes.toBytes(prefix));
  }

  private static String hint(Operator operator, Cell current, Filter... members) {
    FilterList list = new FilterList(operator, members);
    list.reset();
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, list.filterCell(current));
    return Bytes.toString(list.nextCellHint(current).qualifierArray());
  }

  @Test
  void mustPassOneSeeksOnlyIfEveryMemberDoes() {
    FilterList list =
        new FilterList(
            Operator.MUST_PASS_ONE,
            new ColumnPrefixFilter(Bytes.toBytes("p")),
            new Scripted(ReturnCode.SKIP));
    list.reset();
    assertEquals(ReturnCode.SKIP, list.filterCell(cell("a")));
  }

  @Test
  void mustPassAllStopsShowingARejectedCellExceptToHintingMembers() {
    Scripted rejecting = new Scripted(ReturnCode.NEXT_COL);
    Scripted later = new Scripted(ReturnCode.INCLUDE);
    ColumnPrefixFilter hinting = new ColumnPrefixFilter(Bytes.toBytes("p"));
    FilterList list = new FilterList(Operator.MUST_PASS_ALL, rejecting, later, hinting);
    list.reset();
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, list.filterCell(cell("a")));
    assertEquals(List.of(), later.shown);
    assertEquals("p", Bytes.toString(list.nextCellHint(cell("a")).qualifierArray()));
    assertEquals(ReturnCode.NEXT_COL, list.filterCell(cell("p1")));
  }

  @Test
  void mustPassAllDropsARowKeyUnlessAHintingMemberLetsItThrough() {
    RowFilter rejecting =
        new RowFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("other")));
    FilterList withoutHinting =
        new FilterList(
            Operator.MUST_PASS_ALL,
            new RowFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("other"))),
            new Scripted(ReturnCode.INCLUDE));
    withoutHinting.reset();
    assertTrue(withoutHinting.filterRowKey(cell("a")));

    FilterList withHinting =
        new FilterList(Operator.MUST_PASS_ALL, rejecting, new PrefixFilter(ROW));
    withHinting.reset();
    assertFalse(withHinting.filterRowKey(cell("a")));
    assertEquals(ReturnCode.NEXT_ROW, withHinting.filterCell(cell("a")));
    assertTrue(withHinting.filterRow());
  }

  @Test
  void aDoneMemberEndsAMustPassAllListButNotAMustPassOneList() {
    Scripted done = new Scripted(ReturnCode.INCLUDE);
    done.done = true;
    FilterList all = new FilterList(Operator.MUST_PASS_ALL, new Scripted(ReturnCode.INCLUDE), done);
    assertTrue(all.filterAllRemaining());
    assertTrue(all.filterRowKey(cell("a")));
    assertEquals(ReturnCode.NEXT_ROW, all.filterCell(cell("a")));

    Scripted doneToo = new Scripted(ReturnCode.INCLUDE);
    doneToo.done = true;
    Scripted running = new Scripted(ReturnCode.INCLUDE_AND_NEXT_COL);
    FilterList one = new FilterList(Operator.MUST_PASS_ONE, doneToo, running);
    assertFalse(one.filterAllRemaining());
    assertEquals(ReturnCode.INCLUDE_AND_NEXT_COL, one.filterCell(cell("a")));
    assertEquals(List.of(), doneToo.shown);
    running.done = true;
    assertTrue(one.filterAllRemaining());
    assertEquals(ReturnCode.SKIP, one.filterCell(cell("b")));
  }

  @Test
  void mustPassOneDoesNotShowAMemberCellsItAskedToSkip() {
    Scripted nextColumn = new Scripted(ReturnCode.NEXT_COL);
    Scripted nextRow = new Scripted(ReturnCode.NEXT_ROW);
    Scripted seeking = new Scripted(ReturnCode.SEEK_NEXT_USING_HINT);
    seeking.hintQualifier = "c";
    Scripted including = new Scripted(ReturnCode.INCLUDE);
    FilterList list =
        new FilterList(Operator.MUST_PASS_ONE, nextColumn, nextRow, seeking, including);
    list.reset();
    for (KeyValue cell :
        List.of(
            cell("f", "a", 2, "v"),
            cell("f", "a", 1, "v"),
            cell("f", "b", 1, "v"),
            cell("f", "c", 1, "v"),
            cell("g", "a", 1, "v"))) {
      assertEquals(ReturnCode.INCLUDE, list.filterCell(cell));
    }
    assertEquals(List.of("a", "b", "c", "a"), nextColumn.shown);
    assertEquals(List.of("a", "a"), nextRow.shown);
    assertEquals(List.of("a", "c", "a"), seeking.shown);
    assertEquals(5, including.shown.size());

    list.reset();
    list.filterCell(cell("f", "a", 1, "v"));
    assertEquals(List.of("a", "b", "c", "a", "a"), nextColumn.shown);
  }

  @Test
  void rowLevelAnswersCombine() {
    Scripted keeps = new Scripted(ReturnCode.INCLUDE);
    Scripted drops = new Scripted(ReturnCode.INCLUDE);
    drops.dropRowKey = true;
    drops.dropRow = true;
    FilterList all = new FilterList(Operator.MUST_PASS_ALL, keeps, drops);
    assertTrue(all.filterRowKey(cell("a")));
    assertTrue(all.filterRow());
    FilterList one =
        new FilterList(Operator.MUST_PASS_ONE, new Scripted(ReturnCode.INCLUDE), dropping());
    assertFalse(one.filterRowKey(cell("a")));
    assertFalse(one.filterRow());
    FilterList allDrop = new FilterList(Operator.MUST_PASS_ONE, dropping(), dropping());
    assertTrue(allDrop.filterRowKey(cell("a")));
    assertTrue(allDrop.filterRow());

    assertFalse(all.hasFilterRow());
    assertTrue(
        new FilterList(Operator.MUST_PASS_ONE, new Scripted(ReturnCode.INCLUDE), new PageFilter(1))
            .hasFilterRow());
  }

  private static Scripted dropping() {
    Scripted filter = new Scripted(ReturnCode.INCLUDE);
    filter.dropRowKey = true;
    filter.dropRow = true;
    return filter;
  }

  @Test
  void filterRowCellsReachesEveryMember() {
    Filter dropFirst =
        new Filter() {
          @Override
          public void filterRowCells(List<Cell> cells) {
            cells.remove(0);
          }
        };
    Filter dropFirstToo =
        new Filter() {
          @Override
          public void filterRowCells(List<Cell> cells) {
            cells.remove(0);
          }
        };
    for (Operator operator : Operator.values()) {
      List<Cell> cells = new ArrayList<>(List.of(cell("a"), cell("b"), cell("c")));
      new FilterList(operator, dropFirst, new FilterList(operator, dropFirstToo))
          .filterRowCells(cells);
      assertEquals(1, cells.size());
    }
  }

  @Test
  void anEmptyListKeepsEverything() {
    for (Operator operator : Operator.values()) {
      FilterList list = new FilterList(operator);
      list.reset();
      assertFalse(list.filterAllRemaining());
      assertFalse(list.filterRowKey(cell("a")));
      assertEquals(ReturnCode.INCLUDE, list.filterCell(cell("a")));
      assertFalse(list.hasFilterRow());
      assertFalse(list.filterRow());
    }
  }

  @Test
  void argumentsAreChecked() {
    assertEquals(
        "operator",
        assertThrows(NullPointerException.class, () -> new FilterList(null, new PageFilter(1)))
            .getMessage());
    assertEquals(
        "FilterList: member 1 is null",
        assertThrows(
                NullPointerException.class,
                () -> new FilterList(Operator.MUST_PASS_ALL, new PageFilter(1), null))
            .getMessage());
    PageFilter shared = new PageFilter(3);
    IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new FilterList(
                    Operator.MUST_PASS_ALL,
                    shared,
                    new FilterList(Operator.MUST_PASS_ONE, new FilterAllFilter(), shared)));
    assertEquals(
        "FilterList: the same PageFilter 3 instance appears twice; filters keep state, so"
            + " give each place its own instance",
        twice.getMessage());
  }

  @Test
  void describesItsMembers() {
    FilterList list =
        new FilterList(
            Operator.MUST_PASS_ONE,
            new PrefixFilter(Bytes.toBytes("r1")),
            new FilterList(Operator.MUST_PASS_ALL, new PageFilter(2), new FilterAllFilter()));
    assertEquals(
        "FilterList MUST_PASS_ONE [PrefixFilter r1, FilterList MUST_PASS_ALL"
            + " [PageFilter 2, FilterAllFilter]]",
        list.toString());
    assertEquals(Operator.MUST_PASS_ONE, list.operator());
    assertEquals(2, list.filters().size());
  }

  // ---------------------------------------------------------------- against HBase

  private static final String[] FAMILIES = {"a", "b"};
  private static final String[] QUALIFIERS = {"", "c", "q", "q0", "q1", "q10", "q2", "x"};
  private static final String[] VALUES = {"", "m", "n", "nn", "o", "N"};

  private static byte[] pick(SplittableRandom random, String[] from) {
    return Bytes.toBytes(from[random.nextInt(from.length)]);
  }

  private static ByteArrayComparable comparator(SplittableRandom random, String[] from) {
    return switch (random.nextInt(3)) {
      case 0 -> new BinaryComparator(pick(random, from));
      case 1 -> new BinaryPrefixComparator(pick(random, from));
      default -> new SubstringComparator(from[random.nextInt(from.length)]);
    };
  }

  private static CompareOperator operator(
      SplittableRandom random, ByteArrayComparable comparator, boolean noOp) {
    if (!comparator.ordersBytes()) {
      return random.nextBoolean() ? CompareOperator.EQUAL : CompareOperator.NOT_EQUAL;
    }
    return CompareOperator.values()[random.nextInt(noOp ? 7 : 6)];
  }

  private static Filter randomFilter(SplittableRandom random, int depth) {
    int kind = random.nextInt(depth < 2 ? 9 : 7);
    switch (kind) {
      case 0 -> {
        ByteArrayComparable comparator = comparator(random, new String[] {"r0", "r1", "r"});
        return new RowFilter(operator(random, comparator, true), comparator);
      }
      case 1 -> {
        ByteArrayComparable comparator = comparator(random, FAMILIES);
        return new FamilyFilter(operator(random, comparator, true), comparator);
      }
      case 2 -> {
        ByteArrayComparable comparator = comparator(random, QUALIFIERS);
        return new QualifierFilter(operator(random, comparator, true), comparator);
      }
      case 3 -> {
        ByteArrayComparable comparator = comparator(random, VALUES);
        return new ValueFilter(operator(random, comparator, true), comparator);
      }
      case 4 -> {
        return new ColumnPrefixFilter(pick(random, QUALIFIERS));
      }
      case 5 -> {
        ByteArrayComparable comparator = comparator(random, VALUES);
        SingleColumnValueFilter filter =
            new SingleColumnValueFilter(
                pick(random, FAMILIES),
                pick(random, QUALIFIERS),
                operator(random, comparator, false),
                comparator);
        filter.setFilterIfMissing(random.nextBoolean());
        filter.setLatestVersionOnly(random.nextBoolean());
        return filter;
      }
      case 6 -> {
        return new PageFilter(random.nextInt(4));
      }
      default -> {
        List<Filter> members = new ArrayList<>();
        int count = random.nextInt(4);
        for (int i = 0; i < count; i++) {
          members.add(randomFilter(random, depth + 1));
        }
        return new FilterList(
            random.nextBoolean() ? Operator.MUST_PASS_ALL : Operator.MUST_PASS_ONE, members);
      }
    }
  }

  private static List<List<KeyValue>> randomRows(SplittableRandom random) {
    List<List<KeyValue>> rows = new ArrayList<>();
    int rowCount = 1 + random.nextInt(6);
    for (int r = 0; r < rowCount; r++) {
      byte[] row = Bytes.toBytes("r" + r);
      List<KeyValue> cells = new ArrayList<>();
      for (String family : FAMILIES) {
        for (String qualifier : QUALIFIERS) {
          for (int version = 3; version > 0; version--) {
            if (random.nextInt(3) == 0) {
              cells.add(
                  KeyValue.create(
                      row,
                      Bytes.toBytes(family),
                      Bytes.toBytes(qualifier),
                      version,
                      CellType.PUT,
                      pick(random, VALUES)));
            }
          }
        }
      }
      if (!cells.isEmpty()) {
        rows.add(cells);
      }
    }
    return rows;
  }

  @Test
  void randomNestedListsAnswerAsHBasesDo(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 2_000; round++) {
      Filter filter = randomFilter(random, 0);
      org.apache.hadoop.hbase.filter.Filter twin = HBaseTwins.filter(filter);
      String what = "round " + round + ": " + filter;
      walk(filter, twin, randomRows(random), what);
    }
  }

  /**
   * Drives both filters through the rows as a region scanner would, moving through each family's
   * cells as the (equal) answers say, and compares every answer, hint and row-level call.
   */
  private static void walk(
      Filter filter,
      org.apache.hadoop.hbase.filter.Filter twin,
      List<List<KeyValue>> rows,
      String what)
      throws Exception {
    assertEquals(twin.hasFilterRow(), filter.hasFilterRow(), what);
    for (List<KeyValue> row : rows) {
      assertEquals(twin.filterAllRemaining(), filter.filterAllRemaining(), what);
      if (filter.filterAllRemaining()) {
        return;
      }
      filter.reset();
      twin.reset();
      boolean dropped = filter.filterRowKey(row.get(0));
      assertEquals(twin.filterRowKey(HBaseTwins.cell(row.get(0))), dropped, what);
      if (dropped) {
        continue;
      }
      int kept = 0;
      int at = 0;
      while (at < row.size()) {
        KeyValue cell = row.get(at);
        org.apache.hadoop.hbase.KeyValue twinCell = HBaseTwins.cell(cell);
        ReturnCode code = filter.filterCell(cell);
        assertEquals(HBaseTwins.code(twin.filterCell(twinCell)), code, what + " on " + cell);
        Cell hint = null;
        if (code == ReturnCode.SEEK_NEXT_USING_HINT) {
          hint = filter.nextCellHint(cell);
          assertTrue(
              HBaseTwins.sameKey(hint, twin.getNextCellHint(twinCell)), what + " hint on " + cell);
        }
        kept += ReturnCodes.includes(code) ? 1 : 0;
        at = next(row, at, code, hint);
      }
      if (kept > 0) {
        assertEquals(twin.filterRow(), filter.filterRow(), what);
      }
    }
  }

  /** Where a store scanner goes after answering {@code code} for the cell at {@code at}. */
  private static int next(List<KeyValue> row, int at, ReturnCode code, Cell hint) {
    KeyValue current = row.get(at);
    int next = at + 1;
    switch (code) {
      case INCLUDE, SKIP -> {}
      case INCLUDE_AND_NEXT_COL, NEXT_COL -> {
        while (next < row.size()
            && CellComparator.compareFamilies(row.get(next), current) == 0
            && CellComparator.compareQualifiers(row.get(next), current) == 0) {
          next++;
        }
      }
      case INCLUDE_AND_SEEK_NEXT_ROW, NEXT_ROW -> {
        while (next < row.size() && CellComparator.compareFamilies(row.get(next), current) == 0) {
          next++;
        }
      }
      case SEEK_NEXT_USING_HINT -> {
        if (hint != null && CellComparator.INSTANCE.compare(hint, current) > 0) {
          while (next < row.size() && CellComparator.INSTANCE.compare(row.get(next), hint) < 0) {
            next++;
          }
        }
      }
    }
    return next;
  }
}
