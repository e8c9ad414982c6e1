package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * DependentColumnFilter against HBase's on random rows ({@link TwinDriver}); RandomRowFilter
 * against HBase's where the answer is certain, and statistically where it is a draw.
 */
@ExtendWith(TestSeedExtension.class)
class DependentAndRandomFiltersTest {

  private static final byte[] VALUE_BYTES = {'a', 'b', 1, (byte) 0x80};

  @Test
  void dependentColumnFilterAgreesWithHBase(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 2_000; round++) {
      byte[] family = Bytes.toBytes(random.nextBoolean() ? "f" : "g");
      byte[] qualifier = TwinDriver.randomBytes(random, new byte[] {'a', 'b', 0}, 0, 1);
      DependentColumnFilter filter =
          switch (random.nextInt(3)) {
            case 0 -> new DependentColumnFilter(family, qualifier, random.nextBoolean());
            case 1 ->
                new DependentColumnFilter(
                    family,
                    qualifier,
                    random.nextBoolean(),
                    CompareOperator.values()[random.nextInt(CompareOperator.values().length)],
                    new BinaryComparator(TwinDriver.randomBytes(random, VALUE_BYTES, 0, 2)));
            default ->
                new DependentColumnFilter(
                    family,
                    qualifier,
                    random.nextBoolean(),
                    random.nextBoolean() ? CompareOperator.EQUAL : CompareOperator.NOT_EQUAL,
                    new SubstringComparator("a"));
          };
      List<KeyValue> cells = TwinDriver.randomCells(random, 1 + random.nextInt(40), VALUE_BYTES);
      TwinDriver.drive(filter, HBaseTwins.filter(filter), cells, "round " + round + ": " + filter);
    }
  }

  @Test
  void certainChancesAgreeWithHBase(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (float chance : new float[] {-0.5f, 0f, 1f, 1.5f}) {
      for (int round = 0; round < 200; round++) {
        RandomRowFilter filter = new RandomRowFilter(chance);
        List<KeyValue> cells = TwinDriver.randomCells(random, 1 + random.nextInt(40), VALUE_BYTES);
        TwinDriver.drive(filter, HBaseTwins.filter(filter), cells, "chance " + chance);
      }
    }
  }

  @Test
  void rowsAreKeptWithTheChanceGiven() {
    int rows = 20_000;
    for (float chance : new float[] {0.1f, 0.5f, 0.9f}) {
      RandomRowFilter filter = new RandomRowFilter(chance);
      int kept = 0;
      for (int i = 0; i < rows; i++) {
        filter.reset();
        KeyValue cell =
            KeyValue.create(
                Bytes.toBytes("row" + i),
                Bytes.toBytes("f"),
                Bytes.EMPTY,
                1,
                CellType.PUT,
                Bytes.EMPTY);
        boolean dropped = filter.filterRowKey(cell);
        assertEquals(dropped, filter.filterRow());
        assertEquals(
            dropped ? Filter.ReturnCode.NEXT_ROW : Filter.ReturnCode.INCLUDE,
            filter.filterCell(cell));
        kept += dropped ? 0 : 1;
      }
      double expected = rows * chance;
      double sigma = Math.sqrt(rows * chance * (1 - chance));
      assertTrue(
          Math.abs(kept - expected) < 6 * sigma,
          "chance " + chance + ": kept " + kept + " of " + rows);
    }
  }
}
