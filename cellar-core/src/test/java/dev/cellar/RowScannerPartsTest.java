package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.ValueFilter;
import dev.cellar.row.RowBudget;
import dev.cellar.schema.Durability;
import dev.cellar.store.ReadSemanticsOracle;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RowScanner#nextPart}: the parts of each row, concatenated, are the row {@link
 * RowScanner#nextView()} returns, whatever the cells, bytes and deadline allowed per part, on
 * random wide rows with versions and deletes across families, flushes and compactions, forward and
 * reversed, with filters that work cell by cell (split) and on whole rows (never split). A part
 * stops inside its row only at its cell or byte budget, the cell that spends it included, and only
 * when the row has more cells; a passed deadline stops a part every {@value
 * RowBudget#CELLS_PER_DEADLINE_CHECK} cells examined without losing or repeating any. The seed is
 * printed with each failure ({@code -Dcellar.test.seed} replays it).
 */
@ExtendWith(TestSeedExtension.class)
class RowScannerPartsTest {

  private static final byte[][] FAMILIES = {bytes("a"), bytes("b")};
  private static final int ROWS = 30;
  private static final int VERSIONS = 2;

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] row(int i) {
    return String.format("row-%03d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] qualifier(int i) {
    return String.format("q%04d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static CellarConfig config() {
    return CellarConfig.defaults()
        .with("hbase.hregion.memstore.flush.size", "262144")
        .with("hbase.hstore.compaction.min", "3")
        .with("hfile.block.cache.memory.size", "8m")
        .with("hbase.bucketcache.ioengine", "offheap")
        .with("hbase.bucketcache.size", "32");
  }

  private static TableDescriptor table() {
    return TableDescriptor.of(
        "t",
        ColumnFamilyDescriptor.of(
            "a", Map.of("VERSIONS", Integer.toString(VERSIONS), "BLOCKSIZE", "1024")),
        ColumnFamilyDescriptor.of(
            "b",
            Map.of(
                "VERSIONS",
                Integer.toString(VERSIONS),
                "BLOCKSIZE",
                "4096",
                "DATA_BLOCK_ENCODING",
                "FAST_DIFF")));
  }

  @Test
  void partsOfRandomRowsMakeUpTheRowsWholeReadsReturn(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    try (Cellar cellar = Cellar.open(directory, config())) {
      cellar.admin().createTable(table());
      Table table = cellar.table("t");
      for (int step = 0; step < 400; step++) {
        int op = random.nextInt(100);
        if (op < 60) {
          table.put(randomPut(random, step).setDurability(Durability.SKIP_WAL));
        } else if (op < 70) {
          table.delete(randomDelete(random).setDurability(Durability.SKIP_WAL));
        } else if (op < 93) {
          checkScan(table, random, "step " + step);
        } else if (op < 97) {
          cellar.admin().flush("t");
        } else {
          cellar.admin().compact("t");
        }
      }
      cellar.admin().flush("t");
      for (int i = 0; i < 30; i++) {
        checkScan(table, random, "at the end");
      }
    }
  }

  /** A put of a few cells, or, one time in ten, of a few hundred (a wide row). */
  private static Put randomPut(SplittableRandom random, int step) {
    Put put = new Put(row(random.nextInt(ROWS)));
    boolean wide = random.nextInt(10) == 0;
    int cells = wide ? 100 + random.nextInt(400) : 1 + random.nextInt(5);
    for (int c = 0; c < cells; c++) {
      byte[] value =
          bytes(
              "v"
                  + step
                  + "-"
                  + c
                  + "-"
                  + "x".repeat(random.nextInt(4) == 0 ? random.nextInt(1500) : random.nextInt(40)));
      put.addColumn(
          FAMILIES[random.nextInt(2)],
          qualifier(random.nextInt(wide ? 800 : 20)),
          1 + random.nextInt(10),
          value);
    }
    return put;
  }

  private static Delete randomDelete(SplittableRandom random) {
    byte[] row = row(random.nextInt(ROWS));
    byte[] family = FAMILIES[random.nextInt(2)];
    byte[] qualifier = qualifier(random.nextInt(20));
    long ts = 1 + random.nextInt(10);
    return RandomDeletes.of(random, row, family, qualifier, ts);
  }

  /**
   * A random scan read whole and in random parts (with or without a passed deadline), each with a
   * filter of its own (filters keep per-scan state); the parts regrouped by row are the rows.
   */
  private static void checkScan(Table table, SplittableRandom random, String context)
      throws IOException {
    boolean reversed = random.nextInt(3) == 0;
    int versions = 1 + random.nextInt(VERSIONS);
    Supplier<Filter> filters = random.nextInt(2) == 0 ? randomFilter(random) : () -> null;
    int maxCells = random.nextInt(3) == 0 ? Integer.MAX_VALUE : 1 + random.nextInt(60);
    long maxBytes = random.nextInt(3) == 0 ? Long.MAX_VALUE : 1 + random.nextInt(20_000);
    boolean timed = random.nextInt(3) == 0;
    Supplier<Scan> scans =
        () -> {
          Scan scan = new Scan().readVersions(versions).setReversed(reversed);
          Filter filter = filters.get();
          return filter == null ? scan : scan.setFilter(filter);
        };
    boolean wholeRowFilter = filters.get() != null && filters.get().hasFilterRow();
    String what =
        context
            + (reversed ? " reversed" : "")
            + " versions "
            + versions
            + " filter "
            + filters.get()
            + " parts of "
            + maxCells
            + " cells, "
            + maxBytes
            + " bytes"
            + (timed ? ", deadline passed" : "");
    List<List<String>> rows = new ArrayList<>();
    try (RowScanner scanner = table.rowScanner(scans.get())) {
      for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
        rows.add(describe(view));
      }
    }
    List<List<String>> regrouped = new ArrayList<>();
    List<String> current = null;
    try (RowScanner scanner = table.rowScanner(scans.get())) {
      for (int calls = 0; ; calls++) {
        assertTrue(calls < 1_000_000, what + ": no end");
        RowView part =
            timed
                ? scanner.nextPart(maxCells, maxBytes, System.nanoTime())
                : scanner.nextPart(maxCells, maxBytes);
        boolean inRow = scanner.stoppedInRow();
        if (part == null) {
          if (timed && scanner.stoppedAtDeadline()) {
            if (inRow && current == null) {
              current = new ArrayList<>();
            }
            continue;
          }
          break;
        }
        if (current == null) {
          assertFalse(part.isEmpty(), what + ": a row's first part holds a cell");
          current = new ArrayList<>();
        }
        current.addAll(describe(part));
        checkPartLimits(part, inRow, maxCells, maxBytes, timed, wholeRowFilter, what);
        if (!inRow) {
          if (!current.isEmpty()) {
            regrouped.add(current);
          }
          current = null;
        }
      }
    }
    assertNull(current, what + ": the scan ended inside a row");
    assertEquals(rows, regrouped, what);
  }

  /**
   * An untimed part that stops inside its row is full: its cells reach the cell or byte limit, and
   * its last cell is the one that did. A part never exceeds the cell limit, and holds whole rows
   * under a whole-row filter.
   */
  private static void checkPartLimits(
      RowView part,
      boolean inRow,
      int maxCells,
      long maxBytes,
      boolean timed,
      boolean wholeRowFilter,
      String what) {
    if (wholeRowFilter) {
      assertFalse(inRow, what + ": a whole-row filter's row was split");
      return;
    }
    assertTrue(part.size() <= maxCells, what + ": " + part.size() + " cells in a part");
    long bytes = 0;
    for (int i = 0; i < part.size() - 1; i++) {
      bytes += RowBudget.size(part.cell(i));
    }
    assertTrue(bytes < maxBytes, what + ": the part went on after its bytes were spent");
    if (inRow && !timed) {
      long all = part.isEmpty() ? 0 : bytes + RowBudget.size(part.cell(part.size() - 1));
      assertTrue(
          part.size() == maxCells || all >= maxBytes,
          what + ": stopped inside its row with budget left");
    }
  }

  private static List<String> describe(RowView view) {
    List<String> cells = new ArrayList<>();
    for (Cell cell : view.cells()) {
      cells.add(ReadSemanticsOracle.describe(cell));
    }
    return cells;
  }

  private static Supplier<Filter> randomFilter(SplittableRandom random) {
    int digit = random.nextInt(8);
    int page = 1 + random.nextInt(6);
    return switch (random.nextInt(7)) {
      case 0 ->
          () ->
              new QualifierFilter(
                  CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(bytes("q0" + digit)));
      case 1 -> () -> new ColumnPrefixFilter(bytes("q00" + digit));
      case 2 -> () -> new ValueFilter(CompareOperator.LESS, new BinaryComparator(bytes("v2")));
      case 3 -> () -> new PrefixFilter(bytes("row-01"));
      case 4 -> () -> new PageFilter(page);
      case 5 ->
          () ->
              new SingleColumnValueFilter(
                  FAMILIES[0],
                  qualifier(digit),
                  CompareOperator.GREATER,
                  new BinaryComparator(bytes("v1")));
      default ->
          () ->
              new FilterList(
                  FilterList.Operator.MUST_PASS_ALL,
                  new ColumnPrefixFilter(bytes("q0")),
                  new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(bytes("v0"))));
    };
  }

  /**
   * One row wider than the deadline's check interval, whose every cell but a few the filter drops:
   * a passed deadline stops each call after that many cells examined (or between two families),
   * returning the few it found (or nothing, at the deadline inside the row), forward and reversed;
   * every cell comes back once, in order, and the scanner names the row it is in.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aPassedDeadlineSplitsAWideRowWithoutLosingCells(boolean reversed) throws IOException {
    int columns = 5 * RowBudget.CELLS_PER_DEADLINE_CHECK / 2;
    try (Cellar cellar = Cellar.open(directory, config())) {
      cellar.admin().createTable(table());
      Table table = cellar.table("t");
      for (int r = 0; r < 3; r++) {
        Put put = new Put(row(r));
        for (int c = 0; c < (r == 1 ? columns : 3); c++) {
          put.addColumn(
              FAMILIES[c % 2],
              bytes(String.format("c%06d", c)),
              bytes(c % 997 == 0 ? "hit" : "miss"));
        }
        table.put(put.setDurability(Durability.SKIP_WAL));
      }
      cellar.admin().flush("t");
      Supplier<Scan> scan =
          () ->
              new Scan()
                  .setReversed(reversed)
                  .setFilter(
                      new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(bytes("hit"))));
      List<String> whole = new ArrayList<>();
      try (RowScanner scanner = table.rowScanner(scan.get())) {
        for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
          whole.addAll(describe(view));
        }
      }
      List<String> parts = new ArrayList<>();
      int stopsInWideRow = 0;
      int emptyStops = 0;
      try (RowScanner scanner = table.rowScanner(scan.get())) {
        while (true) {
          RowView part = scanner.nextPart(Integer.MAX_VALUE, Long.MAX_VALUE, System.nanoTime());
          if (part == null && !scanner.stoppedAtDeadline()) {
            break;
          }
          String stoppedIn = new String(scanner.lastSkippedRow(), StandardCharsets.US_ASCII);
          if (part != null) {
            parts.addAll(describe(part));
            if (!part.isEmpty()) {
              assertEquals(new String(part.row(), StandardCharsets.US_ASCII), stoppedIn);
            }
          } else {
            emptyStops++;
          }
          if (scanner.stoppedInRow() && stoppedIn.equals("row-001")) {
            stopsInWideRow++;
          }
        }
      }
      assertEquals(whole, parts);
      assertTrue(stopsInWideRow >= 2, stopsInWideRow + " stops inside the wide row");
      assertTrue(emptyStops <= stopsInWideRow, emptyStops + " stops without cells");
    }
  }

  /**
   * A row of 1000-byte cells in 1 KiB blocks, read ten cells at a time: each part pins about its
   * own blocks only, not the row's, and the scanner's parts make up the row; a limit counts the
   * wide row once.
   */
  @Test
  void partsPinTheirOwnBlocksAndALimitCountsARowOnce() throws IOException {
    try (Cellar cellar = Cellar.open(directory, config())) {
      cellar.admin().createTable(table());
      Table table = cellar.table("t");
      for (int r = 0; r < 3; r++) {
        Put put = new Put(row(r));
        for (int c = 0; c < 300; c++) {
          put.addColumn(FAMILIES[0], qualifier(c), new byte[1000]);
        }
        table.put(put.setDurability(Durability.SKIP_WAL));
      }
      cellar.admin().flush("t");
      int parts = 0;
      int cells = 0;
      try (RowScanner scanner = table.rowScanner(new Scan().setLimit(2))) {
        for (RowView part = scanner.nextPart(10, Long.MAX_VALUE);
            part != null;
            part = scanner.nextPart(10, Long.MAX_VALUE)) {
          assertTrue(part.pinnedBuffers() <= 11, part.pinnedBuffers() + " blocks pinned");
          parts++;
          cells += part.size();
        }
      }
      assertEquals(600, cells, "two rows under the limit");
      assertEquals(60, parts);
      try (RowScanner scanner = table.rowScanner(new Scan())) {
        RowView part = scanner.nextPart(1, 2500);
        assertEquals(1, part.size());
        assertTrue(scanner.stoppedInRow());
        part = scanner.nextPart(Integer.MAX_VALUE, 2500);
        assertEquals(3, part.size(), "the cell that reaches the bytes is the part's last");
        assertEquals(296, scanner.nextView().size(), "a whole read takes the rest of the row");
        assertFalse(scanner.stoppedInRow());
        assertEquals(300, scanner.nextView().size());
        assertThrows(IllegalArgumentException.class, () -> scanner.nextPart(0, 10));
      }
    }
  }
}
