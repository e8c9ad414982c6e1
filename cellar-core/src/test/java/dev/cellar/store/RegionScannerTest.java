package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The read semantics of store and region scanners (versions, the four kinds of delete markers, time
 * ranges, TTL with minimum versions, column selection, several sources and families, skips by steps
 * and by seeks) against {@link ReadSemanticsOracle}, on random data with the seed printed.
 */
@ExtendWith(TestSeedExtension.class)
class RegionScannerTest {

  private static final byte[][] FAMILIES = {"a".getBytes(), "b".getBytes()};
  private static final CellType[] TYPES = {
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

  private static byte[] row(int i) {
    return String.format("r%02d", i).getBytes();
  }

  private static List<KeyValue> randomCells(SplittableRandom random, int count) {
    List<KeyValue> cells = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CellType type = TYPES[random.nextInt(TYPES.length)];
      byte[] qualifier =
          type == CellType.DELETE_FAMILY || type == CellType.DELETE_FAMILY_VERSION
              ? Bytes.EMPTY
              : ("q" + random.nextInt(5)).getBytes();
      byte[] value = type == CellType.PUT ? ("v" + i).getBytes() : Bytes.EMPTY;
      cells.add(
          KeyValue.create(
                  row(random.nextInt(12)),
                  FAMILIES[random.nextInt(2)],
                  qualifier,
                  1 + random.nextInt(12),
                  type,
                  value)
              .withSequenceId(i + 1));
    }
    return cells;
  }

  private static ScanSpec randomSpec(SplittableRandom random) {
    List<byte[]> qualifiers = null;
    if (random.nextBoolean()) {
      qualifiers = new ArrayList<>();
      for (int q = 0; q < 5; q++) {
        if (random.nextInt(3) == 0) {
          qualifiers.add(("q" + q).getBytes());
        }
      }
      if (qualifiers.isEmpty()) {
        qualifiers.add("q2".getBytes());
      }
    }
    long min = random.nextInt(4) == 0 ? random.nextInt(6) : 0;
    long max = random.nextInt(4) == 0 ? min + 1 + random.nextInt(10) : Long.MAX_VALUE;
    long ttl = random.nextInt(3) == 0 ? 1 + random.nextInt(10) : Long.MAX_VALUE;
    return new ScanSpec(
        qualifiers, 1 + random.nextInt(4), min, max, ttl, random.nextInt(2), 13, null);
  }

  @Test
  void randomCellsAndScansMatchTheOracle(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 300; round++) {
      List<KeyValue> cells = randomCells(random, 20 + random.nextInt(200));
      ScanSpec spec = randomSpec(random);
      byte[] start = random.nextBoolean() ? Bytes.EMPTY : row(random.nextInt(12));
      byte[] stop = random.nextBoolean() ? Bytes.EMPTY : row(random.nextInt(13));
      List<List<String>> expected = ReadSemanticsOracle.scan(cells, spec, start, stop);
      List<List<String>> actual =
          ScanHarness.describe(
              ScanHarness.scan(
                  cells, FAMILIES, 1 + random.nextInt(4), spec, start, stop, null, random));
      assertEquals(expected, actual, "round " + round + " spec " + spec);
    }
  }

  /**
   * Columns of many versions and rows of many columns: skipping their rest takes more steps than a
   * skip tries before it seeks, so both ways of skipping are checked.
   */
  @Test
  void longColumnsAndRowsAreSkippedBySeekingAfterAFewSteps(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    List<KeyValue> cells = new ArrayList<>();
    int sequence = 0;
    for (int row = 0; row < 4; row++) {
      int columns = 1 + random.nextInt(3 * RowSifter.STEPS_BEFORE_SEEK);
      for (int q = 0; q < columns; q++) {
        int versions = 1 + random.nextInt(3 * RowSifter.STEPS_BEFORE_SEEK);
        for (int v = 0; v < versions; v++) {
          cells.add(
              KeyValue.create(
                      row(row),
                      FAMILIES[random.nextInt(2)],
                      String.format("q%02d", q).getBytes(),
                      1 + v,
                      CellType.PUT,
                      ("v" + v).getBytes())
                  .withSequenceId(++sequence));
        }
      }
    }
    for (int round = 0; round < 40; round++) {
      List<byte[]> qualifiers =
          random.nextBoolean()
              ? null
              : List.of(String.format("q%02d", random.nextInt(4)).getBytes());
      ScanSpec spec =
          new ScanSpec(
              qualifiers, 1 + random.nextInt(3), 0, Long.MAX_VALUE, Long.MAX_VALUE, 0, 13, null);
      List<List<String>> expected = ReadSemanticsOracle.scan(cells, spec, Bytes.EMPTY, Bytes.EMPTY);
      List<List<String>> actual =
          ScanHarness.describe(
              ScanHarness.scan(
                  cells,
                  FAMILIES,
                  1 + random.nextInt(3),
                  spec,
                  Bytes.EMPTY,
                  Bytes.EMPTY,
                  null,
                  random));
      assertEquals(expected, actual, "round " + round + " spec " + spec);
    }
  }

  @Test
  void reversedScansReturnTheOraclesRowsLargestFirst(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 300; round++) {
      List<KeyValue> cells = randomCells(random, 20 + random.nextInt(200));
      ScanSpec spec = randomSpec(random);
      byte[] start = random.nextBoolean() ? Bytes.EMPTY : row(random.nextInt(12));
      byte[] stop = random.nextBoolean() ? Bytes.EMPTY : row(random.nextInt(12));
      byte[] oracleStart = stop.length == 0 ? Bytes.EMPTY : Region.rowAfter(stop);
      byte[] oracleStop = start.length == 0 ? Bytes.EMPTY : Region.rowAfter(start);
      List<List<String>> expected =
          new ArrayList<>(ReadSemanticsOracle.scan(cells, spec, oracleStart, oracleStop));
      Collections.reverse(expected);
      List<List<String>> actual =
          ScanHarness.describe(
              ScanHarness.scan(
                  cells, FAMILIES, 1 + random.nextInt(4), spec, start, stop, true, null, random));
      assertEquals(
          expected,
          actual,
          "round "
              + round
              + " reversed from "
              + Bytes.toStringBinary(start)
              + " down to "
              + Bytes.toStringBinary(stop)
              + " "
              + spec);
    }
  }
}
