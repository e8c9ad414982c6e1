package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * How the store and region scanners apply a filter, with small scripted filters: which cells a
 * filter is shown (HBase 2's order: versions first), how its return codes and seek hints move the
 * cursor, and which whole-row calls it gets.
 */
class RegionScannerFilterHandlingTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[][] FAMILIES = {FAMILY};

  private static KeyValue put(
      String row, String qualifier, long timestamp, String value, long sequenceId) {
    return KeyValue.create(
            Bytes.toBytes(row),
            FAMILY,
            Bytes.toBytes(qualifier),
            timestamp,
            CellType.PUT,
            Bytes.toBytes(value))
        .withSequenceId(sequenceId);
  }

  private static ScanSpec spec(int maxVersions, long ttlMillis, int minVersions, Filter filter) {
    return new ScanSpec(null, maxVersions, 0, Long.MAX_VALUE, ttlMillis, minVersions, 100, filter);
  }

  private static List<String> values(List<KeyValue> cells, ScanSpec spec) throws IOException {
    List<String> values = new ArrayList<>();
    for (List<Cell> row :
        ScanHarness.scan(
            cells,
            FAMILIES,
            2,
            spec,
            Bytes.EMPTY,
            Bytes.EMPTY,
            spec.filter(),
            new SplittableRandom(1))) {
      for (Cell cell : row) {
        values.add(Bytes.toString(cell.valueArray()));
      }
    }
    return values;
  }

  /** Answers each cell by its value, remembering every value it was shown. */
  private static final class ByValue extends Filter {
    final List<String> shown = new ArrayList<>();
    private final Function<String, ReturnCode> answer;

    ByValue(Function<String, ReturnCode> answer) {
      this.answer = answer;
    }

    @Override
    public ReturnCode filterCell(Cell cell) {
      String value = Bytes.toString(cell.valueArray());
      shown.add(value);
      return answer.apply(value);
    }
  }

  private static Filter.ReturnCode skip(String value, String skipped) {
    return value.equals(skipped) ? Filter.ReturnCode.SKIP : Filter.ReturnCode.INCLUDE;
  }

  @Test
  void aPutShadowedByANewerWriteAtTheSameTimestampNeverReachesTheFilter() throws IOException {
    List<KeyValue> cells = List.of(put("r", "q", 5, "newer", 2), put("r", "q", 5, "older", 1));
    ByValue filter = new ByValue(value -> skip(value, "newer"));
    assertEquals(List.of(), values(cells, spec(3, Long.MAX_VALUE, 0, filter)));
    assertEquals(List.of("newer"), filter.shown);
  }

  @Test
  void theFilterSeesOnlyTheVersionsTheScanWouldReturn() throws IOException {
    List<KeyValue> cells =
        List.of(put("r", "q", 3, "v3", 3), put("r", "q", 2, "v2", 2), put("r", "q", 1, "v1", 1));
    ByValue filter = new ByValue(value -> skip(value, "v3"));
    assertEquals(List.of(), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
    assertEquals(List.of("v3"), filter.shown);

    ByValue two = new ByValue(value -> skip(value, "v3"));
    assertEquals(List.of("v2"), values(cells, spec(2, Long.MAX_VALUE, 0, two)));
    assertEquals(List.of("v3", "v2"), two.shown);
  }

  @Test
  void anExpiredVersionBeyondTheMinimumNeverReachesTheFilter() throws IOException {
    List<KeyValue> cells = List.of(put("r", "q", 90, "fresh", 2), put("r", "q", 10, "expired", 1));
    ByValue filter = new ByValue(value -> skip(value, "fresh"));
    assertEquals(List.of(), values(cells, spec(3, 50, 1, filter)));
    assertEquals(List.of("fresh"), filter.shown);
  }

  @Test
  void aSkipOnTheLastWantedVersionSkipsTheColumn() throws IOException {
    List<KeyValue> cells =
        List.of(put("r", "a", 2, "a2", 4), put("r", "a", 1, "a1", 3), put("r", "b", 2, "b2", 2));
    ByValue filter = new ByValue(value -> skip(value, "a2"));
    assertEquals(List.of("b2"), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
    assertEquals(List.of("a2", "b2"), filter.shown);
  }

  @Test
  void includeAndSeekNextRowKeepsTheCellAndLeavesTheRow() throws IOException {
    List<KeyValue> cells =
        List.of(
            put("r1", "a", 1, "r1a", 1),
            put("r1", "b", 1, "r1b", 2),
            put("r1", "c", 1, "r1c", 3),
            put("r2", "a", 1, "r2a", 4),
            put("r2", "c", 1, "r2c", 5));
    ByValue filter =
        new ByValue(
            value ->
                value.endsWith("b")
                    ? Filter.ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW
                    : Filter.ReturnCode.INCLUDE);
    assertEquals(
        List.of("r1a", "r1b", "r2a", "r2c"), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
    assertEquals(List.of("r1a", "r1b", "r2a", "r2c"), filter.shown);
  }

  @Test
  void includeAndNextColumnKeepsOnlyTheNewestVersion() throws IOException {
    List<KeyValue> cells =
        List.of(put("r", "a", 2, "a2", 3), put("r", "a", 1, "a1", 2), put("r", "b", 2, "b2", 1));
    ByValue filter = new ByValue(value -> Filter.ReturnCode.INCLUDE_AND_NEXT_COL);
    assertEquals(List.of("a2", "b2"), values(cells, spec(3, Long.MAX_VALUE, 0, filter)));
  }

  /** Asks to seek on cells whose value starts with "seek", giving {@code hint} for them. */
  private static final class BadHint extends Filter {
    private final Function<Cell, Cell> hint;

    BadHint(Function<Cell, Cell> hint) {
      this.hint = hint;
    }

    @Override
    public ReturnCode filterCell(Cell cell) {
      return Bytes.toString(cell.valueArray()).startsWith("seek")
          ? ReturnCode.SEEK_NEXT_USING_HINT
          : ReturnCode.INCLUDE;
    }

    @Override
    public Cell nextCellHint(Cell current) {
      return hint.apply(current);
    }
  }

  @Test
  void aHintNotAfterTheCurrentCellOnlyMovesPastIt() {
    List<KeyValue> cells =
        List.of(
            put("r", "a", 1, "seek-a", 1),
            put("r", "b", 1, "b", 2),
            put("r", "c", 1, "seek-c", 3),
            put("s", "a", 1, "s", 4));
    List<Function<Cell, Cell>> hints =
        List.of(
            current -> KeyValue.firstOnRow(current.rowArray()),
            current -> KeyValue.copyOf(current),
            current -> null);
    for (Function<Cell, Cell> hint : hints) {
      List<String> values =
          assertTimeoutPreemptively(
              Duration.ofSeconds(10),
              () -> values(cells, spec(1, Long.MAX_VALUE, 0, new BadHint(hint))));
      assertEquals(List.of("b", "s"), values);
    }
  }

  @Test
  void aHintAfterTheCurrentCellIsSeekedTo() throws IOException {
    List<KeyValue> cells =
        List.of(
            put("r", "a", 1, "seek-a", 1),
            put("r", "b", 1, "b", 2),
            put("r", "c", 1, "c", 3),
            put("s", "a", 1, "s", 4));
    Filter filter =
        new BadHint(
            current ->
                KeyValue.firstOnColumn(
                    current.rowArray(), current.familyArray(), Bytes.toBytes("c")));
    assertEquals(List.of("c", "s"), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
  }

  /**
   * A whole-row filter that empties rows whose key ends in an even digit in filterRowCells and
   * records the rows it is asked to judge in filterRow.
   */
  private static class EmptiesEvenRows extends Filter {
    final List<String> judged = new ArrayList<>();
    private final boolean hasFilterRow;

    EmptiesEvenRows(boolean hasFilterRow) {
      this.hasFilterRow = hasFilterRow;
    }

    @Override
    public void filterRowCells(List<Cell> cells) {
      String row = Bytes.toString(cells.get(0).rowArray());
      if ((row.charAt(row.length() - 1) - '0') % 2 == 0) {
        cells.clear();
      }
    }

    @Override
    public boolean filterRow() {
      judged.add("judged");
      return false;
    }

    @Override
    public boolean hasFilterRow() {
      return hasFilterRow;
    }
  }

  @Test
  void filterRowIsNotAskedAboutARowThatFilterRowCellsEmptied() throws IOException {
    List<KeyValue> cells =
        List.of(
            put("r0", "a", 1, "r0", 1),
            put("r1", "a", 1, "r1", 2),
            put("r2", "a", 1, "r2", 3),
            put("r3", "a", 1, "r3", 4));
    EmptiesEvenRows filter = new EmptiesEvenRows(true);
    assertEquals(List.of("r1", "r3"), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
    assertEquals(2, filter.judged.size());
  }

  @Test
  void filterRowCellsIsOnlyCalledForAFilterThatHasFilterRow() throws IOException {
    List<KeyValue> cells = List.of(put("r0", "a", 1, "r0", 1), put("r1", "a", 1, "r1", 2));
    EmptiesEvenRows filter = new EmptiesEvenRows(false);
    assertEquals(List.of("r0", "r1"), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
    assertEquals(2, filter.judged.size());
  }

  @Test
  void filterRowIsNotAskedAboutARowTheCellFilterEmptied() throws IOException {
    List<KeyValue> cells = List.of(put("r0", "a", 1, "skip", 1), put("r1", "a", 1, "r1", 2));
    EmptiesEvenRows filter =
        new EmptiesEvenRows(false) {
          @Override
          public ReturnCode filterCell(Cell cell) {
            return skip(Bytes.toString(cell.valueArray()), "skip");
          }
        };
    assertEquals(List.of("r1"), values(cells, spec(1, Long.MAX_VALUE, 0, filter)));
    assertEquals(1, filter.judged.size());
  }
}
