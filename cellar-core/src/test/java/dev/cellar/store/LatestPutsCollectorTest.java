package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.row.CollectedRow;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The matcher-free path of a point read: what it takes equals what {@link ReadSemanticsOracle}
 * says, and it gives up (with the row holder as it was) exactly when the row holds a marker or a
 * cell outside the time range or TTL.
 */
@ExtendWith(TestSeedExtension.class)
class LatestPutsCollectorTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[][] QUALIFIERS = {bytes(""), bytes("a"), bytes("b"), bytes("c")};
  private static final byte[] ROW = bytes("r1");
  private static final long NOW = 100;

  @Test
  void takesTheNewestPutOfEachColumn() throws IOException {
    List<Cell> cells =
        List.of(
            put("r1", "a", 5, "a5"),
            put("r1", "a", 3, "a3"),
            put("r1", "b", 9, "b9"),
            put("r0", "a", 7, "other row"),
            put("r2", "a", 7, "other row"));
    assertEquals(List.of("a@5=a5", "b@9=b9"), collected(cells, spec(0, Long.MAX_VALUE, 0)));
  }

  @Test
  void givesUpOnAFamilyMarkerSortedAfterAPutOfTheEmptyQualifier() throws IOException {
    List<Cell> cells =
        List.of(
            put("r1", "", 10, "e10"),
            cell("r1", "", 5, CellType.DELETE_FAMILY, ""),
            put("r1", "a", 3, "masked"));
    CollectedRow out = new CollectedRow();
    ListScanner source = positioned(cells);
    assertFalse(
        LatestPutsCollector.collect(
            source, KeyValue.firstOnRow(ROW), Long.MIN_VALUE, spec(0, Long.MAX_VALUE, 0), out));
    assertEquals(0, out.size());
  }

  @Test
  void agreesWithTheOracleOnRandomRows(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    CellType[] markers = {
      CellType.DELETE,
      CellType.DELETE_COLUMN,
      CellType.DELETE_FAMILY,
      CellType.DELETE_FAMILY_VERSION
    };
    int tookRows = 0;
    for (int round = 0; round < 2_000; round++) {
      String context = "round " + round;
      boolean withMarkers = random.nextInt(4) == 0;
      List<Cell> cells = new ArrayList<>();
      long sequence = 0;
      for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
        String row = "r" + random.nextInt(3);
        byte[] qualifier = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
        long ts = 1 + random.nextInt(10);
        CellType type =
            withMarkers && random.nextInt(3) == 0
                ? markers[random.nextInt(markers.length)]
                : CellType.PUT;
        byte[] q =
            type == CellType.DELETE_FAMILY || type == CellType.DELETE_FAMILY_VERSION
                ? bytes("")
                : qualifier;
        cells.add(
            KeyValue.create(bytes(row), FAMILY, q, ts, type, bytes("v" + i))
                .withSequenceId(++sequence));
      }
      long min = random.nextInt(4) == 0 ? random.nextInt(6) : 0;
      long max = random.nextInt(4) == 0 ? min + 1 + random.nextInt(8) : Long.MAX_VALUE;
      long ttl = random.nextInt(4) == 0 ? NOW - 1 - random.nextInt(8) : Long.MAX_VALUE;
      ScanSpec spec = new ScanSpec(null, 1, min, max, ttl, 0, NOW, null);

      CollectedRow out = new CollectedRow();
      out.addCopy(put("r0", "z", 1, "kept"));
      ListScanner source = positioned(cells);
      boolean took =
          source.peek() != null
              && LatestPutsCollector.collect(
                  source, KeyValue.firstOnRow(ROW), spec.oldestUnexpiredTimestamp(), spec, out);
      boolean needsMatcher =
          cells.stream()
              .anyMatch(
                  c ->
                      sameRow(c)
                          && (c.type() != CellType.PUT
                              || c.timestamp() < Math.max(min, spec.oldestUnexpiredTimestamp())
                              || c.timestamp() >= max));
      if (!took) {
        assertEquals(1, out.size(), context + ": a row given up keeps what was held");
        assertTrue(source.peek() == null || needsMatcher, context + ": gave up on " + cells);
        continue;
      }
      tookRows++;
      List<String> expected =
          ReadSemanticsOracle.scan(cells, spec, ROW, bytes("r1\0")).stream()
              .flatMap(List::stream)
              .toList();
      List<String> actual = new ArrayList<>();
      for (int i = 1; i < out.size(); i++) {
        actual.add(ReadSemanticsOracle.describe(out.get(i)));
      }
      assertEquals(expected, actual, context + ": " + cells);
    }
    assertTrue(tookRows > 500, "only " + tookRows + " rows took the short way");
  }

  private static boolean sameRow(Cell cell) {
    return Arrays.equals(cell.rowArray(), ROW);
  }

  private static List<String> collected(List<Cell> cells, ScanSpec spec) throws IOException {
    CollectedRow out = new CollectedRow();
    assertTrue(
        LatestPutsCollector.collect(
            positioned(cells),
            KeyValue.firstOnRow(ROW),
            spec.oldestUnexpiredTimestamp(),
            spec,
            out));
    List<String> described = new ArrayList<>();
    for (int i = 0; i < out.size(); i++) {
      Cell cell = out.get(i);
      described.add(
          new String(cell.qualifierArray(), StandardCharsets.UTF_8)
              + "@"
              + cell.timestamp()
              + "="
              + new String(cell.valueArray(), StandardCharsets.UTF_8));
    }
    return described;
  }

  private static ListScanner positioned(List<Cell> cells) throws IOException {
    ListScanner source = new ListScanner(cells, 0);
    source.seek(KeyValue.firstOnRow(ROW));
    return source;
  }

  private static ScanSpec spec(long min, long max, int minVersions) {
    return new ScanSpec(null, 1, min, max, Long.MAX_VALUE, minVersions, NOW, null);
  }

  private static KeyValue put(String row, String qualifier, long ts, String value) {
    return cell(row, qualifier, ts, CellType.PUT, value);
  }

  private static KeyValue cell(String row, String qualifier, long ts, CellType type, String value) {
    return KeyValue.create(bytes(row), FAMILY, bytes(qualifier), ts, type, bytes(value));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
