package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter.ReturnCode;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** ColumnPrefixFilter's answers and hints, alone and against HBase's. */
@ExtendWith(TestSeedExtension.class)
class ColumnPrefixFilterTest {

  private static KeyValue cell(String qualifier) {
    return cell(Bytes.toBytes(qualifier));
  }

  private static KeyValue cell(byte[] qualifier) {
    return KeyValue.create(
        Bytes.toBytes("row"), Bytes.toBytes("fam"), qualifier, 7, CellType.PUT, Bytes.toBytes("v"));
  }

  @Test
  void seeksToThePrefixKeepsItsColumnsAndLeavesAfterThem() {
    ColumnPrefixFilter filter = new ColumnPrefixFilter(Bytes.toBytes("q1"));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, filter.filterCell(cell("a")));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, filter.filterCell(cell("q")));
    assertEquals(ReturnCode.SEEK_NEXT_USING_HINT, filter.filterCell(cell("q0zz")));
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(cell("q1")));
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(cell("q1\u0000")));
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(cell("q10")));
    assertEquals(ReturnCode.NEXT_ROW, filter.filterCell(cell("q2")));
    assertEquals(ReturnCode.NEXT_ROW, filter.filterCell(cell("r")));

    Cell hint = filter.nextCellHint(cell("a"));
    assertEquals(
        0,
        CellComparator.INSTANCE.compare(
            KeyValue.firstOnColumn(Bytes.toBytes("row"), Bytes.toBytes("fam"), Bytes.toBytes("q1")),
            hint));
    KeyValue newestOfPrefixColumn =
        KeyValue.create(
            Bytes.toBytes("row"),
            Bytes.toBytes("fam"),
            Bytes.toBytes("q1"),
            KeyValue.LATEST_TIMESTAMP,
            CellType.DELETE_COLUMN,
            Bytes.EMPTY);
    assertEquals(-1, Integer.signum(CellComparator.INSTANCE.compare(hint, newestOfPrefixColumn)));
  }

  @Test
  void anEmptyPrefixKeepsEverything() {
    ColumnPrefixFilter filter = new ColumnPrefixFilter(Bytes.EMPTY);
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(cell("")));
    assertEquals(ReturnCode.INCLUDE, filter.filterCell(cell("zz")));
  }

  @Test
  void answersAndHintsMatchHBase(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    byte[] alphabet = {'a', 'b', 0, (byte) 0x80, (byte) 0xFF};
    for (int round = 0; round < 5_000; round++) {
      ColumnPrefixFilter filter = new ColumnPrefixFilter(bytes(random, alphabet, 3));
      org.apache.hadoop.hbase.filter.Filter twin = HBaseTwins.filter(filter);
      KeyValue cell = cell(bytes(random, alphabet, 4));
      String what = "round " + round + ": " + filter + " on " + cell;
      ReturnCode code = filter.filterCell(cell);
      org.apache.hadoop.hbase.KeyValue twinCell = HBaseTwins.cell(cell);
      assertEquals(HBaseTwins.code(twin.filterCell(twinCell)), code, what);
      if (code == ReturnCode.SEEK_NEXT_USING_HINT) {
        assertEquals(
            true,
            HBaseTwins.sameKey(filter.nextCellHint(cell), twin.getNextCellHint(twinCell)),
            what);
      }
    }
  }

  private static byte[] bytes(SplittableRandom random, byte[] alphabet, int maxLength) {
    byte[] bytes = new byte[random.nextInt(maxLength + 1)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return bytes;
  }

  @Test
  void thePrefixIsCheckedAndDescribed() {
    assertEquals(
        "prefix",
        assertThrows(NullPointerException.class, () -> new ColumnPrefixFilter(null)).getMessage());
    assertEquals(
        "ColumnPrefixFilter q\\x00", new ColumnPrefixFilter(new byte[] {'q', 0}).toString());
  }
}
