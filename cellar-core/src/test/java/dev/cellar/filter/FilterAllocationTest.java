package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.filter.FilterList.Operator;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Judging a cell allocates nothing: every filter, over cells read in place from off-heap memory,
 * with ASCII values for the substring comparator and no seek hints asked for.
 */
class FilterAllocationTest {

  private static final int ROUNDS = 20_000;

  private static List<Filter> filters() {
    byte[] v = Bytes.toBytes("v1");
    List<Filter> filters = new ArrayList<>();
    for (ByteArrayComparable comparator :
        List.of(
            new BinaryComparator(v), new BinaryPrefixComparator(v), new SubstringComparator("V"))) {
      filters.add(new RowFilter(CompareOperator.EQUAL, comparator));
      filters.add(new FamilyFilter(CompareOperator.NOT_EQUAL, comparator));
      filters.add(new QualifierFilter(CompareOperator.EQUAL, comparator));
      filters.add(new ValueFilter(CompareOperator.NOT_EQUAL, comparator));
    }
    filters.add(new PrefixFilter(Bytes.toBytes("row1")));
    filters.add(new ColumnPrefixFilter(Bytes.toBytes("q1")));
    SingleColumnValueFilter scvf =
        new SingleColumnValueFilter(
            Bytes.toBytes("f"),
            Bytes.toBytes("q1"),
            CompareOperator.GREATER,
            new BinaryComparator(v));
    scvf.setLatestVersionOnly(false);
    filters.add(scvf);
    filters.add(new PageFilter(Long.MAX_VALUE));
    filters.add(new FilterAllFilter());
    filters.add(
        new FilterList(
            Operator.MUST_PASS_ALL,
            new FilterList(
                Operator.MUST_PASS_ONE,
                new QualifierFilter(CompareOperator.LESS, new BinaryComparator(v)),
                new ColumnPrefixFilter(Bytes.toBytes("q")),
                new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("x"))),
            new RowFilter(CompareOperator.GREATER, new BinaryComparator(Bytes.toBytes("a"))),
            new PageFilter(Long.MAX_VALUE)));
    filters.add(
        new FilterList(
            Operator.MUST_PASS_ONE,
            new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("g"))),
            new ColumnPrefixFilter(Bytes.toBytes("q2")),
            new PrefixFilter(Bytes.toBytes("row"))));
    return filters;
  }

  @Test
  void judgingCellsInPlaceAllocatesNothing() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = arena.allocate(4096);
      List<KeyValueCell> cells = new ArrayList<>();
      long position = 0;
      for (String qualifier : new String[] {"a", "q0", "q1", "q10", "q2", "z"}) {
        for (long timestamp = 3; timestamp > 0; timestamp--) {
          KeyValue cell =
              KeyValue.create(
                  Bytes.toBytes("row1"),
                  Bytes.toBytes("f"),
                  Bytes.toBytes(qualifier),
                  timestamp,
                  CellType.PUT,
                  Bytes.toBytes("Value " + qualifier + timestamp));
          MemorySegment.copy(cell.segment(), 0, block, position, cell.length());
          cells.add(new KeyValueCell(block, position, cell.length(), false, 0));
          position += cell.length();
        }
      }
      List<Filter> filters = filters();
      long checksum = judge(filters, cells);
      long before = threads.getCurrentThreadAllocatedBytes();
      checksum += judge(filters, cells);
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(
          allocated < 1024,
          allocated
              + " bytes allocated judging "
              + ROUNDS
              + " rows of "
              + cells.size()
              + " cells with "
              + filters.size()
              + " filters (checksum "
              + checksum
              + ")");
    }
  }

  private static long judge(List<Filter> filterList, List<KeyValueCell> cellList) {
    Filter[] filters = filterList.toArray(Filter[]::new);
    Cell[] cells = cellList.toArray(Cell[]::new);
    long sum = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Filter filter = filters[round % filters.length];
      filter.reset();
      sum += filter.filterRowKey(cells[0]) ? 1 : 0;
      for (int i = 0; i < cells.length; i++) {
        sum += filter.filterCell(cells[i]).ordinal();
      }
      sum += filter.filterRow() ? 1 : 0;
      sum += filter.filterAllRemaining() ? 1 : 0;
    }
    return sum;
  }
}
