package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.server.ServerOptions;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wide rows through HBase's own client (2.6.1): the server splits a row between cells, by size and
 * by time, for the client that takes partial results (HBase's always says it does), and the
 * client's own machinery puts the parts together or hands them out: a scan that allows partial
 * results gets a wide row in several results flagged partial, whose cells, concatenated, are the
 * row the server's embedded database returns; the same scan without it gets whole rows, put
 * together by the client; batches regroup the parts; a row wider than the server's own result size
 * comes in parts too; a filter that skips most cells of a row is cut short inside the row by the
 * time limit and every cell still comes back once; reversed scans split rows the same way; and
 * random scans of random wide rows (the seed printed, {@code -Dcellar.test.seed} replays it) return
 * what the embedded database returns.
 */
@ExtendWith(TestSeedExtension.class)
class ScanPartialRowsInteropTest {

  private static final TableName NAME = TableName.valueOf("t");
  private static final byte[] F = bytes("f");
  private static final byte[] G = bytes("g");

  /** A wide row's cell as the server counts it: 12 + key (2 + 4 + 1 + 1 + 5 + 8 + 1) + 1000. */
  private static final int WIDE_CELL = 12 + 22 + 1000;

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static ServedCellar serve(
      Path data, Map<String, String> server, Compression.Algorithm compression, boolean cached)
      throws IOException {
    ServedCellar served = ServedCellar.start(data, server, Map.of());
    try (Admin admin = served.connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(NAME)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(F)
                      .setCompressionType(compression)
                      .setBlockCacheEnabled(cached)
                      .build())
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(G)
                      .setCompressionType(compression)
                      .setBlockCacheEnabled(cached)
                      .build())
              .build());
    }
    return served;
  }

  private static ServedCellar serve(Path data, Map<String, String> server) throws IOException {
    return serve(data, server, Compression.Algorithm.NONE, true);
  }

  /**
   * Writes a row of {@code cells} cells of {@code length}-byte values, every third in family g,
   * each value filled with a byte of its own, straight into the server's database (quicker than
   * through the client, and the same to the scans), flushed.
   */
  private static void row(ServedCellar served, String row, int cells, int length)
      throws IOException {
    dev.cellar.Table table = served.server.database().table("t");
    for (int from = 0; from < cells; from += 1000) {
      dev.cellar.Put put = new dev.cellar.Put(bytes(row));
      for (int c = from; c < Math.min(cells, from + 1000); c++) {
        byte[] value = new byte[length];
        Arrays.fill(value, (byte) (c * 7 + row.length()));
        put.addColumn(c % 3 == 2 ? G : F, bytes(String.format("q%04d", c)), value);
      }
      table.put(put.setDurability(dev.cellar.schema.Durability.SKIP_WAL));
    }
    served.server.database().admin().flush("t");
  }

  /** Rows a, b (small), wide (300 cells of 1000 bytes over both families) and z (small). */
  private static void standardRows(ServedCellar served) throws IOException {
    row(served, "a", 3, 10);
    row(served, "b", 5, 10);
    row(served, "wide", 300, 1000);
    row(served, "z", 2, 10);
  }

  private static String describe(Cell cell) {
    return new String(CellUtil.cloneRow(cell), StandardCharsets.UTF_8)
        + "/"
        + new String(CellUtil.cloneFamily(cell), StandardCharsets.UTF_8)
        + ":"
        + new String(CellUtil.cloneQualifier(cell), StandardCharsets.UTF_8)
        + "/"
        + cell.getTimestamp()
        + "="
        + Arrays.hashCode(CellUtil.cloneValue(cell));
  }

  private static String describe(dev.cellar.cell.Cell cell) {
    return new String(cell.rowArray(), StandardCharsets.UTF_8)
        + "/"
        + new String(cell.familyArray(), StandardCharsets.UTF_8)
        + ":"
        + new String(cell.qualifierArray(), StandardCharsets.UTF_8)
        + "/"
        + cell.timestamp()
        + "="
        + Arrays.hashCode(cell.valueArray());
  }

  /** What HBase's client returned: each result's cells and its partial flag, and the calls. */
  private record Scanned(List<List<String>> results, List<Boolean> partial, long calls) {

    /** The results put together into rows by their partial flags. */
    List<List<String>> rows() {
      List<List<String>> rows = new ArrayList<>();
      boolean open = false;
      for (int i = 0; i < results.size(); i++) {
        List<String> result = results.get(i);
        if (open && rowOf(rows.getLast().getFirst()).equals(rowOf(result.getFirst()))) {
          rows.getLast().addAll(result);
        } else {
          rows.add(new ArrayList<>(result));
        }
        open = partial.get(i);
      }
      return rows;
    }
  }

  private static String rowOf(String cell) {
    return cell.substring(0, cell.indexOf('/'));
  }

  private static Scanned scan(ServedCellar served, Scan scan) throws IOException {
    List<List<String>> results = new ArrayList<>();
    List<Boolean> partial = new ArrayList<>();
    scan.setScanMetricsEnabled(true);
    try (Table table = served.connection.getTable(NAME);
        ResultScanner scanner = table.getScanner(scan)) {
      for (Result result = scanner.next(); result != null; result = scanner.next()) {
        List<String> cells = new ArrayList<>();
        for (Cell cell : result.rawCells()) {
          cells.add(describe(cell));
        }
        results.add(cells);
        partial.add(result.mayHaveMoreCellsInRow());
      }
      return new Scanned(results, partial, scanner.getScanMetrics().countOfRPCcalls.get());
    }
  }

  private static List<List<String>> embedded(ServedCellar served, dev.cellar.Scan scan)
      throws IOException {
    List<List<String>> rows = new ArrayList<>();
    try (dev.cellar.ResultScanner scanner = served.server.database().table("t").scanner(scan)) {
      for (dev.cellar.Result result : scanner) {
        try (result) {
          List<String> cells = new ArrayList<>();
          for (dev.cellar.cell.Cell cell : result.rawCells()) {
            cells.add(describe(cell));
          }
          rows.add(cells);
        }
      }
    }
    return rows;
  }

  @Test
  void aWideRowComesInPartialResultsOrWholeAsTheScanAsks() throws IOException {
    try (ServedCellar served = serve(dir.resolve("data"), Map.of())) {
      standardRows(served);
      List<List<String>> expected = embedded(served, new dev.cellar.Scan());
      Scanned parts =
          scan(served, new Scan().setAllowPartialResults(true).setMaxResultSize(10_000));
      int perCall = (10_000 + WIDE_CELL - 1) / WIDE_CELL;
      List<Integer> wideSizes = new ArrayList<>();
      for (int i = 0; i < parts.results().size(); i++) {
        if (rowOf(parts.results().get(i).getFirst()).equals("wide")) {
          wideSizes.add(parts.results().get(i).size());
        }
      }
      assertTrue(wideSizes.size() >= 300 / perCall, "the wide row in " + wideSizes);
      assertTrue(wideSizes.stream().allMatch(size -> size <= perCall), wideSizes.toString());
      int wideResults = wideSizes.size();
      long flagged = parts.partial().stream().filter(Boolean::booleanValue).count();
      assertEquals(wideResults - 1, flagged, "every part of the wide row but its last");
      assertEquals(expected, parts.rows());

      Scanned whole = scan(served, new Scan().setMaxResultSize(10_000));
      assertEquals(expected, whole.results(), "the client puts the parts together");
      assertFalse(whole.partial().contains(true));
      assertTrue(whole.calls() >= 300 / perCall, whole.calls() + " calls");
      assertEquals(0, served.server.openScanners(), "scanners left open on the server");
    }
  }

  /**
   * Batches of 7 under a size limit of about ten cells: the client regroups the server's parts into
   * results of exactly 7 cells but a row's last (HBase's BatchScanResultCache), or, allowing
   * partial results, hands them out as they come, none over 7; both make up the rows.
   */
  @Test
  void batchesAndPartialResultsCombine() throws IOException {
    try (ServedCellar served = serve(dir.resolve("data"), Map.of())) {
      standardRows(served);
      List<List<String>> expected = embedded(served, new dev.cellar.Scan());
      Scanned batched = scan(served, new Scan().setBatch(7).setMaxResultSize(10_000));
      for (int i = 0; i < batched.results().size(); i++) {
        int size = batched.results().get(i).size();
        assertTrue(batched.partial().get(i) ? size == 7 : size <= 7, "result " + i + ": " + size);
      }
      assertEquals(expected, batched.rows());
      Scanned both =
          scan(
              served, new Scan().setBatch(7).setAllowPartialResults(true).setMaxResultSize(10_000));
      assertTrue(both.results().stream().allMatch(result -> result.size() <= 7));
      assertTrue(
          both.results().stream()
              .anyMatch(result -> result.size() < 7 && rowOf(result.getFirst()).equals("wide")),
          "the size limit cut some batches");
      assertEquals(expected, both.rows());
    }
  }

  /** A row of a megabyte against the server's 64 KiB: many calls, each within the server's size. */
  @Test
  void aRowWiderThanTheServersResultSizeComesInParts() throws IOException {
    try (ServedCellar served =
        serve(dir.resolve("data"), Map.of(ServerOptions.SCANNER_MAX_RESULT_SIZE, "65536"))) {
      row(served, "huge", 1000, 1000);
      row(served, "small", 4, 10);
      List<List<String>> expected = embedded(served, new dev.cellar.Scan());
      Scanned whole = scan(served, new Scan());
      assertEquals(expected, whole.results());
      assertTrue(whole.calls() >= 1000 * WIDE_CELL / 65536, whole.calls() + " calls");
      Scanned parts = scan(served, new Scan().setAllowPartialResults(true));
      int cellsPerCall = (65536 + WIDE_CELL - 1) / WIDE_CELL;
      assertTrue(parts.results().stream().allMatch(result -> result.size() <= cellsPerCall));
      assertEquals(expected, parts.rows());
    }
  }

  @Test
  void reversedScansSplitRowsTheSameWay() throws IOException {
    try (ServedCellar served = serve(dir.resolve("data"), Map.of())) {
      standardRows(served);
      row(served, "wider", 500, 1000);
      List<List<String>> expected = embedded(served, new dev.cellar.Scan().setReversed(true));
      Scanned parts =
          scan(
              served,
              new Scan().setReversed(true).setAllowPartialResults(true).setMaxResultSize(20_000));
      assertTrue(parts.results().size() >= 800 / 20, parts.results().size() + " results");
      assertEquals(expected, parts.rows());
      assertEquals(
          expected, scan(served, new Scan().setReversed(true).setMaxResultSize(20_000)).results());
    }
  }

  /**
   * A filter that finds one cell in a thousand of a wide row whose blocks are compressed and not
   * cached, with a 100 ms scanner lease (so a 50 ms time limit): the row grows until its filtered
   * scan takes several time limits, so that calls are cut short inside it, answering heartbeats
   * with the cells found so far flagged partial; every cell comes back once, whether the client
   * hands out the parts or puts them together.
   */
  @Test
  void theTimeLimitCutsAFilteredWideRowAndEveryCellComesBackOnce() throws IOException {
    Supplier<Filter> needles =
        () -> new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("needle"));
    dev.cellar.Scan twin =
        new dev.cellar.Scan()
            .setFilter(
                new dev.cellar.filter.ValueFilter(
                    dev.cellar.filter.CompareOperator.EQUAL,
                    new dev.cellar.filter.SubstringComparator("needle")));
    try (ServedCellar served =
        serve(
            dir.resolve("data"),
            Map.of(ServerOptions.SCANNER_TIMEOUT, "100"),
            Compression.Algorithm.GZ,
            false)) {
      int cells = 0;
      Scanned parts = null;
      long millis = 0;
      while (cells < 2_000_000 && millis < 300) {
        int more = cells == 0 ? 100_000 : cells;
        needleRow(served, cells, cells + more);
        cells += more;
        long start = System.nanoTime();
        parts = scan(served, new Scan().setFilter(needles.get()).setAllowPartialResults(true));
        millis = (System.nanoTime() - start) / 1_000_000;
      }
      System.out.printf(
          "ScanPartialRowsInteropTest: %d cells in %d ms, %d calls, %d results%n",
          cells, millis, parts.calls(), parts.results().size());
      List<List<String>> expected = embedded(served, twin);
      assertEquals(1, expected.size());
      assertEquals((cells + 999) / 1000, expected.getFirst().size());
      assertEquals(expected, parts.rows());
      long flagged = parts.partial().stream().filter(Boolean::booleanValue).count();
      assertTrue(
          flagged >= 2,
          flagged
              + " partial results of "
              + parts.results().size()
              + " in "
              + parts.calls()
              + " calls over "
              + millis
              + " ms");
      assertEquals(expected, scan(served, new Scan().setFilter(needles.get())).results());
      assertEquals(0, served.server.openScanners(), "scanners left open on the server");
    }
  }

  /** Cells [from, to) of row "needles", 200 bytes each, one in a thousand holding "needle". */
  private static void needleRow(ServedCellar served, int from, int to) throws IOException {
    dev.cellar.Table table = served.server.database().table("t");
    for (int start = from; start < to; start += 10_000) {
      dev.cellar.Put put = new dev.cellar.Put(bytes("needles"));
      for (int c = start; c < Math.min(to, start + 10_000); c++) {
        byte[] value = new byte[200];
        Arrays.fill(value, (byte) ('a' + c % 20));
        if (c % 1000 == 0) {
          System.arraycopy(bytes("needle"), 0, value, 50, 6);
        }
        put.addColumn(F, bytes(String.format("c%08d", c)), value);
      }
      table.put(put.setDurability(dev.cellar.schema.Durability.SKIP_WAL));
    }
    served.server.database().admin().flush("t");
  }

  /**
   * Random rows (a few wide) and random scans: start and stop rows, reversed, batches, result
   * sizes, caching, limits, partial results allowed or not, and filters that work cell by cell or
   * on whole rows; what HBase's client returns, put together by row where it hands out parts, is
   * what the embedded database returns.
   */
  @Test
  void randomScansOfRandomWideRowsReturnWhatTheEmbeddedDatabaseReturns(TestSeed seed)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    try (ServedCellar served = serve(dir.resolve("data"), Map.of())) {
      for (int r = 0; r < 25; r++) {
        int cells = random.nextInt(6) == 0 ? 50 + random.nextInt(400) : 1 + random.nextInt(8);
        row(
            served,
            String.format("r%02d", r),
            cells,
            1 + random.nextInt(random.nextBoolean() ? 2000 : 50));
      }
      for (int i = 0; i < 40; i++) {
        checkRandomScan(served, random, "scan " + i);
      }
      assertEquals(0, served.server.openScanners(), "scanners left open on the server");
    }
  }

  private static void checkRandomScan(ServedCellar served, SplittableRandom random, String context)
      throws IOException {
    int low = random.nextInt(25);
    int high = low + random.nextInt(25 - low + 1);
    boolean reversed = random.nextInt(3) == 0;
    boolean ranged = random.nextBoolean();
    int batch = random.nextInt(3) == 0 ? 1 + random.nextInt(20) : 0;
    boolean partials = random.nextBoolean();
    long maxResultSize = random.nextBoolean() ? 1 + random.nextInt(60_000) : -1;
    int caching = random.nextBoolean() ? 1 + random.nextInt(10) : -1;
    // HBase's client miscounts rows under a batch and a limit when it regroups batches itself
    // (BatchScanResultCache counts a row twice when a full batch of it was handed out, its last,
    // short batch is completed and the next row follows in the same response), as it does
    // against HBase's own server, so a limit goes with a batch only where partials are allowed.
    int limit = random.nextInt(4) == 0 && (batch == 0 || partials) ? 1 + random.nextInt(6) : 0;
    int filterKind = random.nextInt(batch > 0 ? 3 : 4);
    String lowRow = String.format("r%02d", low);
    String highRow = String.format("r%02d", high);
    Scan scan = new Scan().setReversed(reversed).setAllowPartialResults(partials);
    dev.cellar.Scan twin = new dev.cellar.Scan().setReversed(reversed);
    if (ranged) {
      scan.withStartRow(bytes(reversed ? highRow : lowRow))
          .withStopRow(bytes(reversed ? lowRow : highRow));
      twin.withStartRow(bytes(reversed ? highRow : lowRow))
          .withStopRow(bytes(reversed ? lowRow : highRow));
    }
    switch (filterKind) {
      case 1 -> {
        scan.setFilter(new ColumnPrefixFilter(bytes("q00")));
        twin.setFilter(new dev.cellar.filter.ColumnPrefixFilter(bytes("q00")));
      }
      case 2 -> {
        scan.setFilter(
            new ValueFilter(CompareOperator.LESS, new BinaryComparator(new byte[] {(byte) 0x80})));
        twin.setFilter(
            new dev.cellar.filter.ValueFilter(
                dev.cellar.filter.CompareOperator.LESS,
                new dev.cellar.filter.BinaryComparator(new byte[] {(byte) 0x80})));
      }
      case 3 -> {
        scan.setFilter(new PageFilter(4));
        twin.setFilter(new dev.cellar.filter.PageFilter(4));
      }
      default -> {}
    }
    if (batch > 0) {
      scan.setBatch(batch);
    }
    if (maxResultSize > 0) {
      scan.setMaxResultSize(maxResultSize);
    }
    if (caching > 0) {
      scan.setCaching(caching);
    }
    if (limit > 0) {
      scan.setLimit(limit);
      twin.setLimit(limit);
    }
    String what = context + ": " + scan;
    List<List<String>> expected = embedded(served, twin);
    Scanned scanned;
    try {
      scanned = scan(served, scan);
    } catch (AssertionError e) {
      throw new AssertionError(what + ": HBase's client failed", e);
    }
    for (int i = 0; i < scanned.results().size(); i++) {
      int size = scanned.results().get(i).size();
      assertTrue(batch == 0 || size <= batch, what + ": result " + i + " of " + size);
      assertTrue(partials || batch > 0 || !scanned.partial().get(i), what + ": a part");
    }
    assertEquals(expected, partials || batch > 0 ? scanned.rows() : scanned.results(), what);
  }
}
