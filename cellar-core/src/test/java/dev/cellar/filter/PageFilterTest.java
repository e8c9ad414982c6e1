package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter.ReturnCode;
import org.junit.jupiter.api.Test;

/** PageFilter's row count, and FilterAllFilter, which keeps nothing. */
class PageFilterTest {

  private static final KeyValue CELL =
      KeyValue.create(
          Bytes.toBytes("r"),
          Bytes.toBytes("f"),
          Bytes.toBytes("q"),
          1,
          CellType.PUT,
          Bytes.toBytes("v"));

  @Test
  void letsAPageOfRowsThroughThenEndsTheScan() {
    PageFilter filter = new PageFilter(2);
    assertTrue(filter.hasFilterRow());
    for (int row = 0; row < 2; row++) {
      assertFalse(filter.filterAllRemaining());
      filter.reset();
      assertFalse(filter.filterRowKey(CELL));
      assertEquals(ReturnCode.INCLUDE, filter.filterCell(CELL));
      assertFalse(filter.filterRow());
    }
    assertTrue(filter.filterAllRemaining());
    assertTrue(filter.filterRowKey(CELL));
    assertTrue(filter.filterRow());
  }

  @Test
  void anEmptyPageEndsTheScanAtOnce() {
    assertTrue(new PageFilter(0).filterAllRemaining());
  }

  @Test
  void theSizeIsCheckedAndTheFilterDescribesItself() {
    assertEquals(
        "PageFilter: page size must be >= 0, was -1",
        assertThrows(IllegalArgumentException.class, () -> new PageFilter(-1)).getMessage());
    assertEquals("PageFilter 10", new PageFilter(10).toString());
    assertEquals(10, new PageFilter(10).pageSize());
  }

  @Test
  void filterAllFilterDropsEveryCellAndRow() {
    FilterAllFilter filter = new FilterAllFilter();
    filter.reset();
    assertFalse(filter.filterRowKey(CELL));
    assertEquals(ReturnCode.SKIP, filter.filterCell(CELL));
    assertTrue(filter.hasFilterRow());
    assertTrue(filter.filterRow());
    assertFalse(filter.filterAllRemaining());
    assertEquals("FilterAllFilter", filter.toString());
  }
}
