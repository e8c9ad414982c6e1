package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Cell;
import dev.cellar.schema.Durability;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Scan call's partial results on the wire, call by call, as HBase 2.6's region server answers
 * them: for a client that handles partial results the size limit applies between cells, so a wide
 * row comes in results of the cells up to the one that reaches the limit, each flagged partial but
 * the row's last, and the next call goes on inside the row; batches cut the parts further; other
 * clients get the row that crosses the limit whole. The request's number of rows counts results,
 * the scan's limit counts whole rows; reversed scans, an excluded start row, a filter needing whole
 * rows, a row whose rest turns out empty and the time limit inside a row (heartbeats) are each
 * checked, and what comes back, put together, is what the embedded database returns.
 */
class ScanPartialResultsTest {

  private static final byte[] A = bytes("a");
  private static final byte[] B = bytes("b");
  private static final int WIDE_A = 200;
  private static final int WIDE_B = 50;

  /** What one cell of the wide row counts: 12 + key (2 + 4 + 1 + 1 + 4 + 8 + 1) + 1000. */
  private static final int WIDE_CELL = 12 + 21 + 1000;

  private static final int SLOW_CELLS = 25_000;
  private static final int HIT_EVERY = 1000;

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Table t: rows m (ten small cells), r1 (three), wide (200 cells of 1000 bytes in family a, 50 in
   * b) and x (three); table slow: one row of {@value #SLOW_CELLS} 512-byte values, one in {@value
   * #HIT_EVERY} holding "needle".
   */
  @BeforeEach
  void load() throws IOException {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      dev.cellar.Table t = cellar.table("t");
      put(t, "m", A, 10, 8);
      put(t, "r1", A, 3, 8);
      put(t, "x", A, 3, 8);
      put(t, "wide", A, WIDE_A, 1000);
      put(t, "wide", B, WIDE_B, 1000);
      cellar.admin().flush("t");
      cellar.admin().createTable(TableDescriptor.of("slow", ColumnFamilyDescriptor.of("a")));
      dev.cellar.Table slow = cellar.table("slow");
      for (int from = 0; from < SLOW_CELLS; from += 1000) {
        Put put = new Put(bytes("s"));
        for (int c = from; c < from + 1000; c++) {
          byte[] value = new byte[512];
          Arrays.fill(value, (byte) 'x');
          if (c % HIT_EVERY == 7) {
            System.arraycopy(bytes("needle"), 0, value, 100, 6);
          }
          put.addColumn(A, bytes(String.format("c%06d", c)), value);
        }
        slow.put(put.setDurability(Durability.SKIP_WAL));
      }
      cellar.admin().flush("slow");
    }
  }

  /** Cells q000.. of {@code length}-byte values, each value filled with its column's number. */
  private static void put(dev.cellar.Table table, String row, byte[] family, int cells, int length)
      throws IOException {
    Put put = new Put(bytes(row));
    for (int c = 0; c < cells; c++) {
      byte[] value = new byte[length];
      Arrays.fill(value, (byte) c);
      put.addColumn(family, bytes(String.format(length > 100 ? "q%03d" : "q%d", c)), value);
    }
    table.put(put.setDurability(Durability.SKIP_WAL));
  }

  private CellarServer start(String... settings) throws IOException {
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    for (int i = 0; i < settings.length; i += 2) {
      config = config.with(settings[i], settings[i + 1]);
    }
    return CellarServer.start(ServerOptions.from(dir, config), config);
  }

  /** One response: its results' cells, their partial flags and the message. */
  private record Page(
      List<List<String>> results, List<Boolean> partial, ClientProtos.ScanResponse message) {

    int cells() {
      return results.stream().mapToInt(List::size).sum();
    }
  }

  /** A scan driven call by call, as HBase's client drives one. */
  private static final class Calls implements AutoCloseable {
    private final RawRpcClient client;
    private final byte[] region;
    private final boolean partials;
    private final int timeoutMillis;
    private long id = -1;
    private long sequence;
    boolean more = true;

    Calls(CellarServer server, String table, boolean partials, int timeoutMillis)
        throws IOException {
      this.client = RawRpcClient.connect(server.address(), "ClientService");
      this.region = server.catalog().byName(table).regionName();
      this.partials = partials;
      this.timeoutMillis = timeoutMillis;
    }

    Page open(ClientProtos.Scan.Builder scan, int rows, int limit) throws IOException {
      ClientProtos.ScanRequest.Builder request =
          ClientProtos.ScanRequest.newBuilder()
              .setRegion(
                  HBaseProtos.RegionSpecifier.newBuilder()
                      .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                      .setValue(ByteString.copyFrom(region)))
              .setScan(scan)
              .setNumberOfRows(rows);
      if (limit > 0) {
        request.setLimitOfRows(limit);
      }
      return send(request);
    }

    Page next(int rows) throws IOException {
      return send(
          ClientProtos.ScanRequest.newBuilder()
              .setScannerId(id)
              .setNumberOfRows(rows)
              .setNextCallSeq(sequence++));
    }

    private Page send(ClientProtos.ScanRequest.Builder request) throws IOException {
      request.setClientHandlesPartials(partials).setClientHandlesHeartbeats(partials);
      client.call("Scan", request.build(), null, timeoutMillis);
      RawRpcClient.Response response = client.read();
      assertFalse(response.header().hasException(), () -> response.header().toString());
      ClientProtos.ScanResponse message = ClientProtos.ScanResponse.parseFrom(response.body());
      id = message.getScannerId();
      more = message.getMoreResultsInRegion();
      DataInputStream cells = new DataInputStream(new ByteArrayInputStream(response.cells()));
      List<List<String>> results = new ArrayList<>();
      for (int count : message.getCellsPerResultList()) {
        List<String> result = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          result.add(describe(cells));
        }
        results.add(result);
      }
      assertEquals(0, cells.available(), "cells left over in the cell block");
      return new Page(results, message.getPartialFlagPerResultList(), message);
    }

    /** The pages up to the end of the scan (the first one given). */
    List<Page> all(Page first, int rows) throws IOException {
      List<Page> pages = new ArrayList<>(List.of(first));
      while (more) {
        pages.add(next(rows));
        assertTrue(pages.size() < 100_000, "no end");
      }
      return pages;
    }

    @Override
    public void close() throws IOException {
      client.close();
    }
  }

  /** A KeyValue of the cell block as row/family:qualifier=length#first byte of its value. */
  private static String describe(DataInputStream cells) throws IOException {
    byte[] cell = new byte[cells.readInt()];
    cells.readFully(cell);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(cell));
    int keyLength = in.readInt();
    int valueLength = in.readInt();
    byte[] row = new byte[in.readShort()];
    in.readFully(row);
    byte[] family = new byte[in.readByte()];
    in.readFully(family);
    byte[] qualifier = new byte[keyLength - 2 - row.length - 1 - family.length - 9];
    in.readFully(qualifier);
    in.skipBytes(9);
    byte[] value = new byte[valueLength];
    in.readFully(value);
    return describe(row, family, qualifier, value);
  }

  private static String describe(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
    return new String(row, StandardCharsets.UTF_8)
        + "/"
        + new String(family, StandardCharsets.UTF_8)
        + ":"
        + new String(qualifier, StandardCharsets.UTF_8)
        + "="
        + value.length
        + "#"
        + (value.length == 0 ? "" : Byte.toString(value[0]));
  }

  /** The rows the embedded database returns for {@code scan}, each its cells described. */
  private static List<List<String>> embedded(
      CellarServer server, String table, dev.cellar.Scan scan) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    try (dev.cellar.ResultScanner scanner = server.database().table(table).scanner(scan)) {
      for (dev.cellar.Result result : scanner) {
        try (result) {
          List<String> cells = new ArrayList<>();
          for (Cell cell : result.rawCells()) {
            cells.add(
                describe(
                    cell.rowArray(), cell.familyArray(), cell.qualifierArray(), cell.valueArray()));
          }
          rows.add(cells);
        }
      }
    }
    return rows;
  }

  /**
   * The results of {@code pages} put together into rows, as HBase's client does: a result flagged
   * partial is followed by the rest of its row (or by another row, when the rest was empty).
   */
  private static List<List<String>> rows(List<Page> pages) {
    List<List<String>> rows = new ArrayList<>();
    boolean open = false;
    for (Page page : pages) {
      for (int i = 0; i < page.results().size(); i++) {
        List<String> result = page.results().get(i);
        if (open && rowOf(rows.getLast().getFirst()).equals(rowOf(result.getFirst()))) {
          rows.getLast().addAll(result);
        } else {
          rows.add(new ArrayList<>(result));
        }
        open = page.partial().get(i);
      }
    }
    return rows;
  }

  private static String rowOf(String cell) {
    return cell.substring(0, cell.indexOf('/'));
  }

  private static ClientProtos.Scan.Builder scan(String start, String stop) {
    return ClientProtos.Scan.newBuilder()
        .setStartRow(ByteString.copyFrom(bytes(start)))
        .setStopRow(ByteString.copyFrom(bytes(stop)));
  }

  private static final ClientProtos.Scan.Builder WIDE_ONLY =
      scan("wide", "wide").setIncludeStopRow(true);
  private static final dev.cellar.Scan EMBEDDED_WIDE =
      new dev.cellar.Scan().withStartRow(bytes("wide")).withStopRow(bytes("wide"), true);

  @Test
  void aWideRowComesInPartsOfTheSizeLimitEachFlaggedPartialButTheLast() throws IOException {
    try (CellarServer server = start();
        Calls calls = new Calls(server, "t", true, 0)) {
      List<Page> pages =
          calls.all(calls.open(WIDE_ONLY.clone().setMaxResultSize(10_000), 1000, 0), 1000);
      int perCall = (10_000 + WIDE_CELL - 1) / WIDE_CELL;
      int total = WIDE_A + WIDE_B;
      assertEquals(
          (total + perCall - 1) / perCall + 1,
          pages.size(),
          "one part per call, then" + " the end");
      for (int i = 0; i < pages.size() - 1; i++) {
        Page page = pages.get(i);
        assertEquals(1, page.results().size());
        assertEquals(Math.min(perCall, total - i * perCall), page.cells(), "call " + i);
        assertEquals(List.of(i < pages.size() - 2), page.partial(), "call " + i);
        assertTrue(page.message().getMoreResultsInRegion());
        assertFalse(page.message().getHeartbeatMessage());
      }
      assertEquals(0, pages.getLast().results().size());
      assertFalse(pages.getLast().message().getMoreResultsInRegion());
      assertEquals(embedded(server, "t", EMBEDDED_WIDE), rows(pages));
      assertEquals(0, server.openScanners());
    }
  }

  @Test
  void aClientWithoutPartialsGetsTheRowThatCrossesTheLimitWhole() throws IOException {
    try (CellarServer server = start();
        Calls calls = new Calls(server, "t", false, 0)) {
      List<Page> pages =
          calls.all(calls.open(scan("", "").setMaxResultSize(10_000), 1000, 0), 1000);
      List<Integer> sizes = new ArrayList<>();
      for (Page page : pages) {
        for (int i = 0; i < page.results().size(); i++) {
          sizes.add(page.results().get(i).size());
          assertFalse(page.partial().get(i));
        }
      }
      assertEquals(List.of(10, 3, WIDE_A + WIDE_B, 3), sizes);
      assertEquals(2, pages.size(), "m, r1 and wide; then x and the end");
      assertEquals(embedded(server, "t", new dev.cellar.Scan()), rows(pages));
    }
  }

  /**
   * Batches of 7 with a size limit of ten wide cells: a partials client gets 7 and 3 per call (the
   * size limit cuts the second batch), another 7 and 7 (the limit is looked at between results);
   * each result is flagged partial unless it ends its row.
   */
  @Test
  void batchesAndTheSizeLimitCutARowTogether() throws IOException {
    try (CellarServer server = start()) {
      for (boolean partials : new boolean[] {true, false}) {
        try (Calls calls = new Calls(server, "t", partials, 0)) {
          List<Page> pages =
              calls.all(
                  calls.open(
                      WIDE_ONLY.clone().setBatchSize(7).setMaxResultSize(10 * WIDE_CELL - 1),
                      1000,
                      0),
                  1000);
          assertEquals(partials ? List.of(7, 3) : List.of(7, 7), sizes(pages.getFirst()));
          List<Integer> all = new ArrayList<>();
          List<Boolean> flags = new ArrayList<>();
          for (Page page : pages) {
            all.addAll(sizes(page));
            flags.addAll(page.partial());
          }
          assertTrue(all.stream().allMatch(size -> size <= 7), all.toString());
          assertEquals(WIDE_A + WIDE_B, all.stream().mapToInt(Integer::intValue).sum());
          for (int i = 0; i < flags.size(); i++) {
            assertEquals(i < flags.size() - 1, flags.get(i), "result " + i);
          }
          assertEquals(embedded(server, "t", EMBEDDED_WIDE), rows(pages));
        }
      }
    }
  }

  private static List<Integer> sizes(Page page) {
    return page.results().stream().map(List::size).toList();
  }

  @Test
  void theServersResultSizeSplitsARowWiderThanIt() throws IOException {
    try (CellarServer server = start(ServerOptions.SCANNER_MAX_RESULT_SIZE, "20000");
        Calls calls = new Calls(server, "t", true, 0)) {
      List<Page> pages =
          calls.all(calls.open(scan("", "").setMaxResultSize(2L << 20), 1000, 0), 1000);
      for (Page page : pages) {
        long cells = page.results().stream().flatMap(List::stream).count();
        assertTrue(cells <= (20_000 + WIDE_CELL - 1) / WIDE_CELL + 13, cells + " cells");
      }
      assertTrue(pages.size() >= (WIDE_A + WIDE_B) / 20, pages.size() + " calls");
      assertEquals(embedded(server, "t", new dev.cellar.Scan()), rows(pages));
    }
  }

  /**
   * A call's number of rows counts results (batches and parts), as HBase counts them; the scan's
   * limit counts rows, a row once its last part is read, and closes the scanner there.
   */
  @Test
  void theNumberOfRowsCountsResultsAndTheLimitWholeRows() throws IOException {
    try (CellarServer server = start();
        Calls calls = new Calls(server, "t", true, 0)) {
      Page first = calls.open(scan("", "").setBatchSize(4), 3, 2);
      assertEquals(List.of(4, 4, 2), sizes(first));
      assertEquals(List.of(true, true, false), first.partial());
      List<Page> pages = calls.all(first, 3);
      List<List<String>> rows = rows(pages);
      assertEquals(embedded(server, "t", new dev.cellar.Scan().setLimit(2)), rows);
      assertFalse(pages.getLast().message().getMoreResults(), "the limit closed the scanner");
      assertEquals(0, server.openScanners());
    }
    try (CellarServer server = start();
        Calls calls = new Calls(server, "t", true, 0)) {
      List<Page> pages =
          calls.all(calls.open(scan("r2", "").setMaxResultSize(10_000), 1000, 1), 1000);
      assertEquals(embedded(server, "t", EMBEDDED_WIDE), rows(pages), "one row, in parts");
      assertEquals(0, server.openScanners());
    }
  }

  @Test
  void aReversedScanSplitsRowsTooEachReadForward() throws IOException {
    try (CellarServer server = start();
        Calls calls = new Calls(server, "t", true, 0)) {
      List<Page> pages =
          calls.all(
              calls.open(scan("", "").setReversed(true).setMaxResultSize(10_000), 1000, 0), 1000);
      assertTrue(pages.size() > 20, pages.size() + " calls");
      assertEquals(embedded(server, "t", new dev.cellar.Scan().setReversed(true)), rows(pages));
    }
  }

  /** HBase's scan after a row: a wide start row left out is read and dropped part by part. */
  @Test
  void anExcludedWideStartRowIsLeftOutWhole() throws IOException {
    try (CellarServer server = start()) {
      for (boolean reversed : new boolean[] {false, true}) {
        try (Calls calls = new Calls(server, "t", true, 0)) {
          List<Page> pages =
              calls.all(
                  calls.open(
                      scan("wide", "")
                          .setIncludeStartRow(false)
                          .setReversed(reversed)
                          .setMaxResultSize(10_000),
                      1000,
                      0),
                  1000);
          List<String> rows = rows(pages).stream().map(row -> rowOf(row.getFirst())).toList();
          assertEquals(reversed ? List.of("r1", "m") : List.of("x"), rows);
        }
      }
    }
  }

  /** A filter that needs the whole row (a page filter) gets whole rows, however small the limit. */
  @Test
  void aWholeRowFilterKeepsRowsWhole() throws IOException {
    FilterProtos.Filter page =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.PageFilter")
            .setSerializedFilter(
                FilterProtos.PageFilter.newBuilder().setPageSize(10).build().toByteString())
            .build();
    try (CellarServer server = start();
        Calls calls = new Calls(server, "t", true, 0)) {
      List<Page> pages =
          calls.all(
              calls.open(WIDE_ONLY.clone().setFilter(page).setMaxResultSize(10_000), 1000, 0),
              1000);
      assertEquals(List.of(WIDE_A + WIDE_B), sizes(pages.getFirst()));
      assertEquals(List.of(false), pages.getFirst().partial());
    }
  }

  /**
   * A row cut after its fifth cell by a batch of five, whose other cells a column pagination filter
   * drops: the batch is flagged partial, as the row has more cells, and the next row follows, as
   * from HBase; when the scan ends with that row, the flag is cleared (HBASE-21206), so that no
   * result says its row goes on in a response that says the scan is over.
   */
  @Test
  void aRowWhoseRestIsEmptyEndsAtTheNextRowOrWithTheScan() throws IOException {
    FilterProtos.Filter firstFive =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.ColumnPaginationFilter")
            .setSerializedFilter(
                FilterProtos.ColumnPaginationFilter.newBuilder()
                    .setLimit(5)
                    .setOffset(0)
                    .build()
                    .toByteString())
            .build();
    try (CellarServer server = start()) {
      try (Calls calls = new Calls(server, "t", true, 0)) {
        Page page =
            calls.open(
                scan("m", "r1").setIncludeStopRow(true).setBatchSize(5).setFilter(firstFive),
                1000,
                0);
        assertEquals(List.of(5, 3), sizes(page));
        assertEquals(List.of(true, false), page.partial());
        assertFalse(page.message().getMoreResultsInRegion());
      }
      try (Calls calls = new Calls(server, "t", true, 0)) {
        Page page =
            calls.open(
                scan("m", "m").setIncludeStopRow(true).setBatchSize(5).setFilter(firstFive),
                1000,
                0);
        assertEquals(List.of(5), sizes(page));
        assertEquals(List.of(false), page.partial());
        assertFalse(page.message().getMoreResultsInRegion());
      }
    }
  }

  /**
   * A filter that finds one cell in a thousand of a row of {@value #SLOW_CELLS}, each search
   * costing a microsecond or so, against a time limit of a millisecond (a call timeout of two):
   * each call stops inside the row at its first look at the clock, answering a heartbeat with the
   * cells found so far flagged partial (or none), and the next goes on where it stopped; every cell
   * comes back once.
   */
  @Test
  void theTimeLimitStopsACallInsideARowWithAHeartbeat() throws IOException {
    FilterProtos.Filter needles =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.ValueFilter")
            .setSerializedFilter(
                FilterProtos.ValueFilter.newBuilder()
                    .setCompareFilter(
                        FilterProtos.CompareFilter.newBuilder()
                            .setCompareOp(HBaseProtos.CompareType.EQUAL)
                            .setComparator(
                                ComparatorProtos.Comparator.newBuilder()
                                    .setName("org.apache.hadoop.hbase.filter.SubstringComparator")
                                    .setSerializedComparator(
                                        ComparatorProtos.SubstringComparator.newBuilder()
                                            .setSubstr("needle")
                                            .build()
                                            .toByteString())))
                    .build()
                    .toByteString())
            .build();
    try (CellarServer server = start(ServerOptions.MINIMUM_SCAN_TIME_LIMIT, "1");
        Calls calls = new Calls(server, "slow", true, 2)) {
      List<Page> pages = calls.all(calls.open(scan("", "").setFilter(needles), 1000, 0), 1000);
      long heartbeatsInRow =
          pages.stream()
              .filter(
                  page ->
                      page.message().getHeartbeatMessage()
                          && (page.results().isEmpty() || page.partial().getLast()))
              .count();
      assertTrue(
          heartbeatsInRow >= 2,
          heartbeatsInRow + " heartbeats inside the row of " + pages.size() + " calls");
      List<List<String>> expected =
          embedded(
              server,
              "slow",
              new dev.cellar.Scan()
                  .setFilter(
                      new dev.cellar.filter.ValueFilter(
                          dev.cellar.filter.CompareOperator.EQUAL,
                          new dev.cellar.filter.SubstringComparator("needle"))));
      assertEquals(SLOW_CELLS / HIT_EVERY, expected.getFirst().size());
      assertEquals(expected, rows(pages));
    }
  }
}
