package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The cell converters: both sides build the same bytes, and each converts back unchanged. */
@ExtendWith(TestSeedExtension.class)
class CellSpecTest {

  @Test
  void cellarAndHBaseSerializeEveryCellIdentically(TestSeed seed) {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), 2_000, 100);
    for (CellSpec cell : cells) {
      KeyValue cellar = cell.toCellar();
      org.apache.hadoop.hbase.KeyValue hbase = cell.toHBase();

      byte[] cellarBytes =
          cellar.segment().asSlice(cellar.offset(), cellar.length()).toArray(ValueLayout.JAVA_BYTE);
      byte[] hbaseBytes =
          Arrays.copyOfRange(
              hbase.getBuffer(), hbase.getOffset(), hbase.getOffset() + hbase.getLength());
      assertArrayEquals(hbaseBytes, cellarBytes, cell.toString());
      assertEquals(cell, CellSpec.fromCellar(cellar));
      assertEquals(cell, CellSpec.fromHBase(hbase));
    }
  }
}
