package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.KeyValue;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cell converters: both sides build the same bytes, and each converts back unchanged. */
class CellSpecTest {

  @Test
  void cellarAndHBaseSerializeEveryCellIdentically() {
    long seed = TestCells.seed();
    List<CellSpec> cells = TestCells.sorted(new Random(seed), 2_000, 100);
    for (CellSpec cell : cells) {
      KeyValue cellar = cell.toCellar();
      org.apache.hadoop.hbase.KeyValue hbase = cell.toHBase();

      byte[] cellarBytes = cellar.segment()
          .asSlice(cellar.offset(), cellar.length()).toArray(ValueLayout.JAVA_BYTE);
      byte[] hbaseBytes = Arrays.copyOfRange(hbase.getBuffer(), hbase.getOffset(),
          hbase.getOffset() + hbase.getLength());
      assertArrayEquals(hbaseBytes, cellarBytes, cell + ", " + TestCells.replay(seed));
      assertEquals(cell, CellSpec.fromCellar(cellar), TestCells.replay(seed));
      assertEquals(cell, CellSpec.fromHBase(hbase), TestCells.replay(seed));
    }
  }
}
