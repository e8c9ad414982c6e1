package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter.ReturnCode;
import org.junit.jupiter.api.Test;

/** PrefixFilter row by row: seek to the prefix, keep its rows, end the scan after them. */
class PrefixFilterTest {

  private static KeyValue row(String row) {
    return KeyValue.create(
        Bytes.toBytes(row),
        Bytes.toBytes("f"),
        Bytes.toBytes("q"),
        1,
        CellType.PUT,
        Bytes.toBytes("v"));
  }

  /** Runs the per-row calls a region scanner makes; returns the cell answer (null: row dropped). */
  private static ReturnCode visit(PrefixFilter filter, String row) {
    filter.reset();
    if (filter.filterAllRemaining() || filter.filterRowKey(row(row))) {
      return null;
    }
    return filter.filterCell(row(row));
  }

  @Test
  void rowsBeforeThePrefixSeekToItAndRowsAfterItEndTheScan() {
    PrefixFilter filter = new PrefixFilter(Bytes.toBytes("gg"));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, visit(filter, "aa"));
    assertTrue(filter.filterRow());
    assertEquals(
        0,
        CellComparator.INSTANCE.compare(
            KeyValue.firstOnRow(Bytes.toBytes("gg")), filter.nextCellHint(row("aa"))));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, visit(filter, "g"));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, visit(filter, "gf\u00ff"));
    assertEquals(ReturnCode.INCLUDE, visit(filter, "gg"));
    assertFalse(filter.filterRow());
    assertEquals(ReturnCode.INCLUDE, visit(filter, "gg\u0000"));
    assertEquals(ReturnCode.INCLUDE, visit(filter, "ggzzz"));
    assertFalse(filter.filterAllRemaining());
    assertEquals(null, visit(filter, "gh"));
    assertTrue(filter.filterAllRemaining());
    assertEquals(null, visit(filter, "ggzzzz"));
  }

  @Test
  void aShortRowAfterThePrefixEndsTheScan() {
    PrefixFilter filter = new PrefixFilter(Bytes.toBytes("abc"));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, visit(filter, "ab"));
    assertFalse(filter.filterAllRemaining());
    assertEquals(null, visit(filter, "b"));
    assertTrue(filter.filterAllRemaining());
  }

  @Test
  void bytesCompareUnsigned() {
    PrefixFilter filter = new PrefixFilter(new byte[] {(byte) 0x80});
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, visit(filter, "\u007f"));
    KeyValue high =
        KeyValue.create(
            new byte[] {(byte) 0x80, 1},
            Bytes.toBytes("f"),
            Bytes.EMPTY,
            1,
            CellType.PUT,
            Bytes.EMPTY);
    filter.reset();
    assertFalse(filter.filterRowKey(high));
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(high));
  }

  @Test
  void anEmptyPrefixKeepsEveryRow() {
    PrefixFilter filter = new PrefixFilter(Bytes.EMPTY);
    for (String row : new String[] {"", "a", "zz"}) {
      assertEquals(ReturnCode.INCLUDE, visit(filter, row));
    }
    assertFalse(filter.filterAllRemaining());
  }

  @Test
  void theHintIsComputedOnce() {
    PrefixFilter filter = new PrefixFilter(Bytes.toBytes("p"));
    assertSame(filter.nextCellHint(row("a")), filter.nextCellHint(row("b")));
  }

  @Test
  void thePrefixIsCheckedAndCopied() {
    assertEquals(
        "prefix",
        assertThrows(NullPointerException.class, () -> new PrefixFilter(null)).getMessage());
    byte[] prefix = Bytes.toBytes("ab");
    PrefixFilter filter = new PrefixFilter(prefix);
    prefix[0] = 'z';
    assertEquals("ab", Bytes.toString(filter.prefix()));
    assertEquals("PrefixFilter ab\\xFF", new PrefixFilter(new byte[] {'a', 'b', -1}).toString());
    assertThrows(IllegalArgumentException.class, () -> new PrefixFilter(new byte[40_000]));
  }
}
