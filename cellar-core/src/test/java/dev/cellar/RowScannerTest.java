package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.schema.Durability;
import dev.cellar.store.ReadSemanticsOracle;
import dev.cellar.store.Region;
import dev.cellar.store.ScanSpec;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
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
 * {@link RowScanner}: on random data with versions and every kind of delete, across flushes, minor
 * and major compactions and reopening, the view scanner returns the rows the allocating scanner
 * returns, and both return what {@link ReadSemanticsOracle} says for scans without a filter
 * (forward and reversed, with versions, time ranges and one family); with filters (row, column,
 * value, page, whole-row and lists) the two scanners agree. Closed scanners and views refuse
 * access; a scan of cached rows allocates nothing per row; a forgotten scanner is closed. The seed
 * is printed on failure ({@code -Dcellar.test.seed} replays it).
 */
@ExtendWith(TestSeedExtension.class)
class RowScannerTest {

  private static final int VERSIONS = 3;
  private static final int ROWS = 60;
  private static final byte[][] FAMILIES = {bytes("a"), bytes("b")};

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] row(int i) {
    return String.format("row-%03d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static CellarConfig config(String cache) {
    CellarConfig config =
        CellarConfig.defaults()
            .with("hbase.hregion.memstore.flush.size", "65536")
            .with("hbase.hstore.compaction.min", "3")
            .with("hfile.block.cache.memory.size", "8m");
    return cache.equals("l2")
        ? config.with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "32")
        : config;
  }

  private static TableDescriptor table(String encoding) {
    Map<String, String> attributes =
        Map.of(
            "VERSIONS",
            Integer.toString(VERSIONS),
            "BLOCKSIZE",
            "1024",
            "DATA_BLOCK_ENCODING",
            encoding);
    return TableDescriptor.of(
        "t",
        ColumnFamilyDescriptor.of("a", attributes),
        ColumnFamilyDescriptor.of(
            "b", Map.of("VERSIONS", Integer.toString(VERSIONS), "BLOCKSIZE", "2048")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"l1/NONE", "l2/NONE", "l1/FAST_DIFF", "l2/ROW_INDEX_V1"})
  void viewsReturnWhatResultsAndTheOracleReturn(String setup, TestSeed seed) throws IOException {
    String[] parts = setup.split("/");
    SplittableRandom random = new SplittableRandom(seed.value());
    List<Cell> written = new ArrayList<>();
    long sequence = 0;
    Cellar cellar = Cellar.open(directory, config(parts[0]));
    try {
      cellar.admin().createTable(table(parts[1]));
      for (int step = 0; step < 700; step++) {
        String context = "step " + step;
        Table table = cellar.table("t");
        int op = random.nextInt(100);
        if (op < 55) {
          Put put = randomPut(random, step);
          table.put(put.setDurability(Durability.SKIP_WAL));
          for (KeyValue cell : put.cells()) {
            written.add(cell.withSequenceId(++sequence));
          }
        } else if (op < 65) {
          Delete delete = randomDelete(random);
          table.delete(delete.setDurability(Durability.SKIP_WAL));
          for (KeyValue cell : delete.cells()) {
            written.add(cell.withSequenceId(++sequence));
          }
        } else if (op < 88) {
          checkScan(table, written, random, context);
        } else if (op < 93) {
          cellar.admin().flush("t");
        } else if (op < 96) {
          cellar.admin().compact("t");
        } else if (op < 98) {
          cellar.admin().flush("t");
          cellar.admin().majorCompact("t");
          written = majorCompacted(written);
        } else {
          cellar.close();
          cellar = Cellar.open(directory, config(parts[0]));
        }
      }
      for (int i = 0; i < 10; i++) {
        checkScan(cellar.table("t"), written, random, "at the end");
      }
    } finally {
      cellar.close();
    }
  }

  private static Put randomPut(SplittableRandom random, int step) {
    Put put = new Put(row(random.nextInt(ROWS)));
    for (int c = 0; c < 1 + random.nextInt(4); c++) {
      byte[] value =
          bytes(
              "v"
                  + step
                  + "-"
                  + c
                  + "-"
                  + "x"
                      .repeat(random.nextInt(4) == 0 ? random.nextInt(3000) : random.nextInt(100)));
      put.addColumn(
          FAMILIES[random.nextInt(2)],
          bytes("q" + random.nextInt(6)),
          1 + random.nextInt(20),
          value);
    }
    return put;
  }

  private static Delete randomDelete(SplittableRandom random) {
    byte[] row = row(random.nextInt(ROWS));
    byte[] family = FAMILIES[random.nextInt(2)];
    byte[] qualifier = bytes("q" + random.nextInt(6));
    long ts = 1 + random.nextInt(20);
    return RandomDeletes.of(random, row, family, qualifier, ts);
  }

  private static ScanSpec spec(int versions, long min, long max) {
    return new ScanSpec(
        null,
        Math.min(versions, VERSIONS),
        min,
        max,
        Long.MAX_VALUE,
        0,
        System.currentTimeMillis(),
        null);
  }

  /**
   * A random scan through both scanners; without a filter, against the oracle too. Filters hold
   * per-scan state, so each scanner gets its own.
   */
  private static void checkScan(
      Table table, List<Cell> written, SplittableRandom random, String context) throws IOException {
    int from = random.nextInt(ROWS);
    byte[] low = random.nextBoolean() ? Bytes.EMPTY : row(from);
    byte[] high = random.nextBoolean() ? Bytes.EMPTY : row(from + random.nextInt(30));
    boolean reversed = random.nextInt(3) == 0;
    int versions = 1 + random.nextInt(4);
    long min = random.nextInt(4) == 0 ? random.nextInt(10) : 0;
    long max = random.nextInt(4) == 0 ? min + 1 + random.nextInt(15) : Long.MAX_VALUE;
    byte[] family = random.nextInt(4) == 0 ? FAMILIES[random.nextInt(2)] : null;
    Supplier<Filter> filters = random.nextInt(3) == 0 ? randomFilter(random) : null;
    Supplier<Scan> scans =
        () -> {
          Scan scan =
              new Scan()
                  .readVersions(versions)
                  .setTimeRange(min, max)
                  .setCacheBlocks(random.nextBoolean())
                  .setReversed(reversed)
                  .withStartRow(reversed ? high : low)
                  .withStopRow(reversed ? low : high);
          if (family != null) {
            scan.addFamily(family);
          }
          return filters == null ? scan : scan.setFilter(filters.get());
        };
    String what =
        context
            + (reversed ? " reversed" : "")
            + " scan from "
            + Bytes.toStringBinary(low)
            + " to "
            + Bytes.toStringBinary(high)
            + " versions "
            + versions
            + " time ["
            + min
            + ", "
            + max
            + ")"
            + (family == null ? "" : " family " + Bytes.toStringBinary(family))
            + (filters == null ? "" : " filter " + filters.get());
    List<List<String>> results = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(scans.get())) {
      for (Result next = scanner.next(); next != null; next = scanner.next()) {
        try (Result result = next) {
          results.add(result.rawCells().stream().map(ReadSemanticsOracle::describe).toList());
        }
      }
    }
    List<List<String>> views = new ArrayList<>();
    try (RowScanner scanner = table.rowScanner(scans.get())) {
      for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
        views.add(view.cells().stream().map(ReadSemanticsOracle::describe).toList());
        assertArrayEquals(view.cell(0).rowArray(), view.row(), what);
      }
    }
    assertEquals(results, views, what);
    if (filters == null) {
      List<Cell> relevant =
          family == null
              ? written
              : written.stream()
                  .filter(cell -> Bytes.compare(cell.familyArray(), family) == 0)
                  .toList();
      List<List<String>> expected =
          new ArrayList<>(
              ReadSemanticsOracle.scan(
                  relevant,
                  spec(versions, min, max),
                  reversed ? (low.length == 0 ? Bytes.EMPTY : Region.rowAfter(low)) : low,
                  reversed ? (high.length == 0 ? Bytes.EMPTY : Region.rowAfter(high)) : high));
      if (reversed) {
        Collections.reverse(expected);
      }
      assertEquals(expected, views, what);
    }
  }

  private static Supplier<Filter> randomFilter(SplittableRandom random) {
    int prefix = random.nextInt(6);
    int page = 1 + random.nextInt(8);
    return switch (random.nextInt(7)) {
      case 0 -> () -> new PrefixFilter(bytes("row-0" + prefix));
      case 1 ->
          () ->
              new QualifierFilter(
                  CompareOperator.LESS_OR_EQUAL, new BinaryComparator(bytes("q" + prefix)));
      case 2 -> () -> new ColumnPrefixFilter(bytes("q" + prefix));
      case 3 -> () -> new PageFilter(page);
      case 4 ->
          () ->
              new SingleColumnValueFilter(
                  FAMILIES[0],
                  bytes("q" + prefix),
                  CompareOperator.GREATER,
                  new BinaryComparator(bytes("v7")));
      case 5 ->
          () ->
              new FilterList(
                  FilterList.Operator.MUST_PASS_ALL, new KeepsOddCells(), new PageFilter(page));
      default ->
          () ->
              new FilterList(
                  FilterList.Operator.MUST_PASS_ONE,
                  new PrefixFilter(bytes("row-0" + prefix)),
                  new FilterAllFilter());
    };
  }

  /** A whole-row filter that removes every other cell of each row, in place. */
  private static final class KeepsOddCells extends Filter {
    @Override
    public void filterRowCells(List<Cell> cells) {
      for (int i = cells.size() - 1; i >= 0; i -= 2) {
        cells.remove(i);
      }
    }

    @Override
    public boolean hasFilterRow() {
      return true;
    }

    @Override
    public String toString() {
      return "KeepsOddCells";
    }
  }

  /** What a major compaction keeps: every family's visible versions, as puts. */
  private static List<Cell> majorCompacted(List<Cell> written) {
    List<Cell> kept = new ArrayList<>();
    for (List<Cell> row :
        ReadSemanticsOracle.scanCells(
            written, spec(VERSIONS, 0, Long.MAX_VALUE), Bytes.EMPTY, Bytes.EMPTY)) {
      kept.addAll(row);
    }
    return kept;
  }

  /** Writes {@code rows} rows of one 1000-byte value, flushed. */
  private static void load(Cellar cellar, int rows) throws IOException {
    cellar.admin().createTable(table("NONE"));
    Table table = cellar.table("t");
    for (int i = 0; i < rows; i++) {
      table.put(
          new Put(row(i))
              .addColumn(FAMILIES[0], bytes("q"), new byte[1000])
              .setDurability(Durability.SKIP_WAL));
    }
    cellar.admin().flush("t");
  }

  @Test
  void aClosedScannerAndItsViewRefuseAccess() throws IOException {
    try (Cellar cellar = Cellar.open(directory, config("l2"))) {
      load(cellar, 50);
      RowScanner scanner = cellar.table("t").rowScanner(new Scan());
      RowView view = scanner.nextView();
      assertEquals(1, view.size());
      byte[] key = new byte[16];
      assertEquals(7, view.copyRow(key, 1));
      assertArrayEquals(row(0), java.util.Arrays.copyOfRange(key, 1, 8));
      scanner.close();
      scanner.close();
      IllegalStateException closed = assertThrows(IllegalStateException.class, view::size);
      assertTrue(closed.getMessage().contains("row scanner was closed"), closed.getMessage());
      assertThrows(IllegalStateException.class, () -> view.copyRow(key, 0));
      assertThrows(IllegalStateException.class, scanner::nextView);
    }
  }

  /**
   * Rows of one 1000-byte cell in 1 KiB blocks, so each row lies in a block of its own: a view pins
   * its row's block only, the blocks the scan moved past are released (the leak check after the
   * test finds none outstanding), and rows still in the MemStore pin their segment's MSLAB instead.
   */
  @Test
  void aViewPinsOnlyTheBlocksOfItsRow() throws IOException {
    // The last rows must stay in the MemStore: no background flush at this test's small sizes.
    try (Cellar cellar =
        Cellar.open(
            directory,
            config("l2").with("hbase.hregion.memstore.flush.size", Long.toString(128L << 20)))) {
      load(cellar, 300);
      Table table = cellar.table("t");
      for (int i = 300; i < 320; i++) {
        table.put(new Put(row(i)).addColumn(FAMILIES[0], bytes("q"), new byte[1000]));
      }
      int rows = 0;
      try (RowScanner scanner = table.rowScanner(new Scan())) {
        for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
          assertEquals(1, view.pinnedBuffers(), "row " + rows);
          rows++;
        }
      }
      assertEquals(320, rows);
    }
  }

  @Test
  void aScanStopsAtItsLimitAndAfterTheLastRow() throws IOException {
    try (Cellar cellar = Cellar.open(directory, config("l1"))) {
      load(cellar, 50);
      try (RowScanner scanner = cellar.table("t").rowScanner(new Scan().withStartRow(row(45)))) {
        for (int i = 45; i < 50; i++) {
          assertArrayEquals(row(i), scanner.nextView().row());
        }
        assertNull(scanner.nextView());
        assertNull(scanner.nextView(), "the end stays the end");
      }
      try (RowScanner scanner = cellar.table("t").rowScanner(new Scan().setLimit(3))) {
        for (int i = 0; i < 3; i++) {
          assertArrayEquals(row(i), scanner.nextView().row());
        }
        assertNull(scanner.nextView());
      }
    }
  }

  /**
   * A deadline already passed stops each call after the first row it skips, naming that row, and
   * the scan goes on from there: the rows returned across the calls are those of a scan without a
   * deadline, forward and reversed, and the end of the scan is not taken for a deadline.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aPassedDeadlineStopsAfterEachSkippedRowAndTheScanResumes(boolean reversed)
      throws IOException {
    try (Cellar cellar = Cellar.open(directory, config("l2"))) {
      load(cellar, 50);
      Table table = cellar.table("t");
      Supplier<Scan> scan =
          () ->
              new Scan()
                  .setReversed(reversed)
                  .setFilter(
                      new RowFilter(
                          CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(row(40))));
      List<String> expected = new ArrayList<>();
      try (RowScanner scanner = table.rowScanner(scan.get())) {
        for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
          expected.add(new String(view.row(), StandardCharsets.US_ASCII));
        }
        assertTrue(!scanner.stoppedAtDeadline(), "a scan without a deadline never stops at one");
      }
      assertEquals(10, expected.size());
      List<String> returned = new ArrayList<>();
      List<String> skipped = new ArrayList<>();
      try (RowScanner scanner = table.rowScanner(scan.get())) {
        while (true) {
          RowView view = scanner.nextView(System.nanoTime());
          if (view != null) {
            returned.add(new String(view.row(), StandardCharsets.US_ASCII));
          } else if (scanner.stoppedAtDeadline()) {
            skipped.add(new String(scanner.lastSkippedRow(), StandardCharsets.US_ASCII));
          } else {
            break;
          }
        }
      }
      assertEquals(expected, returned);
      List<String> filteredOut = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        filteredOut.add(new String(row(i), StandardCharsets.US_ASCII));
      }
      if (reversed) {
        Collections.reverse(filteredOut);
      }
      assertEquals(filteredOut, skipped, "one call per skipped row, naming it");
    }
  }

  @Test
  void aForgottenScannerIsClosedWhenCollected() throws Exception {
    try (Cellar cellar = Cellar.open(directory, config("l2"))) {
      load(cellar, 200);
      long leakedBefore = LeakGuard.leaked();
      forgetScanners(cellar.table("t"), 20);
      long deadline = System.nanoTime() + 10_000_000_000L;
      List<byte[]> pressure = new ArrayList<>();
      while (LeakGuard.leaked() < leakedBefore + 20 && System.nanoTime() < deadline) {
        pressure.add(new byte[1 << 16]);
        if (pressure.size() > 64) {
          pressure.clear();
        }
        System.gc();
        Thread.sleep(10);
      }
      assertTrue(
          LeakGuard.leaked() >= leakedBefore + 20,
          "forgotten scanners closed: " + (LeakGuard.leaked() - leakedBefore));
    }
  }

  private static void forgetScanners(Table table, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      RowScanner scanner = table.rowScanner(new Scan().withStartRow(row(i)));
      assertEquals(1, scanner.nextView().size());
    }
  }

  /**
   * Measured in a child JVM with leak detection at its production level (SIMPLE): the PARANOID
   * level every test JVM runs at records every retain and release.
   */
  @ParameterizedTest
  @ValueSource(strings = {"l1", "l2", "memstore", "l1-columns"})
  void aScanOfCachedRowsAllocatesNothingPerRow(String where) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m",
            "-D" + dev.cellar.memory.LeakLevel.PROPERTY + "=SIMPLE",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-cp",
            System.getProperty("java.class.path"),
            ScanAllocationProbe.class.getName(),
            directory.toString(),
            where);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), output);
    String line =
        output
            .lines()
            .filter(l -> l.startsWith("bytes per row "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no measurement in: " + output));
    double perRow = Double.parseDouble(line.substring("bytes per row ".length()));
    assertTrue(perRow <= 1, where + ": " + perRow + " heap bytes per row");
  }
}
