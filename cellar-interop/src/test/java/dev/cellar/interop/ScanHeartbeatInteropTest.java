package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scan heartbeats with HBase's own client (2.6.1): a scan whose filter rejects row after row for
 * longer than the client's scanner timeout completes, its calls answered within half the lease with
 * heartbeats, and returns what the server's embedded database returns for the same scan; a scan
 * that asks for cursors gets, while it finds nothing, cursor results that move forward; and the
 * same scan against the same data fails once the server's heartbeats are turned off, as the client
 * gives up on the call.
 *
 * <p>The table grows until the filtered scan takes several scanner timeouts on this machine, so
 * that the failure without heartbeats does not depend on the machine's speed. Its blocks are
 * compressed and not cached, so that each row costs the scan more and fewer rows do; the lease is
 * two seconds, so that a loaded machine (a full build on two shared cores delayed a call by more
 * than half a second past its time limit) delaying a call's answer past its time limit by less than
 * a second does not fail the client.
 */
class ScanHeartbeatInteropTest {

  private static final int LEASE_MILLIS = 2000;
  private static final long SLOW_SCAN_MILLIS = 5L * LEASE_MILLIS / 2;
  private static final int CHUNK = 100_000;
  private static final int MAX_ROWS = 2_000_000;

  /** Cells per row: each is a value the filter rejects, so a row costs the server that many. */
  private static final int COLUMNS = 16;

  /** One row in this many holds the value the sparse filter matches. */
  private static final int HIT_EVERY = 40_009;

  private static final TableName NAME = TableName.valueOf("t");
  private static final byte[] F = bytes("f");
  private static final byte[] Q = bytes("q");
  private static final byte[] HIT = bytes("hit");

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] row(int i) {
    return bytes(String.format("row-%08d", i));
  }

  private static Map<String, String> server(boolean heartbeats) {
    return Map.of(
        ServerOptions.SCANNER_TIMEOUT,
        Integer.toString(LEASE_MILLIS),
        ServerOptions.SCANNER_HEARTBEATS,
        Boolean.toString(heartbeats));
  }

  private static final Map<String, String> CLIENT =
      Map.of("hbase.client.scanner.timeout.period", Integer.toString(LEASE_MILLIS));

  /** The rows the client scan returned, with the cursors it saw and its RPC count. */
  private record Scanned(List<String> rows, List<String> cursors, long rpcs, long millis) {}

  @Test
  void aLongFilteredScanCompletesWithHeartbeatsAndTimesOutWithout() throws IOException {
    Path data = dir.resolve("data");
    ValueFilter matchesNothing =
        new ValueFilter(
            CompareOperator.EQUAL, new BinaryComparator(bytes("nothing has this value")));
    try (ServedCellar served = ServedCellar.start(data, server(true), CLIENT)) {
      try (Admin admin = served.connection.getAdmin()) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(NAME)
                .setColumnFamily(
                    ColumnFamilyDescriptorBuilder.newBuilder(F)
                        .setCompressionType(Compression.Algorithm.GZ)
                        .setBlockCacheEnabled(false)
                        .build())
                .build());
      }
      Scanned empty = null;
      int rows = 0;
      while (rows < MAX_ROWS && (empty == null || empty.millis < SLOW_SCAN_MILLIS)) {
        int more =
            empty == null
                ? CHUNK
                : (int)
                    Math.min(
                        MAX_ROWS - rows,
                        Math.max(
                            CHUNK,
                            rows * (1.1 * SLOW_SCAN_MILLIS / Math.max(1, empty.millis) - 1)));
        load(served, rows, rows + more);
        rows += more;
        Scanned first = scan(served, new Scan().setFilter(matchesNothing));
        Scanned second = scan(served, new Scan().setFilter(matchesNothing));
        empty = first.millis < second.millis ? first : second;
      }
      assertTrue(
          empty.millis >= SLOW_SCAN_MILLIS,
          "even "
              + rows
              + " rows scan in "
              + empty.millis
              + " ms, too fast to outlast a "
              + LEASE_MILLIS
              + " ms scanner timeout");
      assertEquals(List.of(), empty.rows);
      assertTrue(
          empty.rpcs >= 4,
          "the scan took " + empty.millis + " ms in only " + empty.rpcs + " calls: no heartbeats");

      ValueFilter sparse = new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(HIT));
      Scanned hits = scan(served, new Scan().setFilter(sparse));
      List<String> expected =
          embedded(
              served,
              new dev.cellar.Scan()
                  .setFilter(
                      new dev.cellar.filter.ValueFilter(
                          dev.cellar.filter.CompareOperator.EQUAL,
                          new dev.cellar.filter.BinaryComparator(HIT))));
      assertEquals(expected, hits.rows);
      assertEquals((rows + HIT_EVERY - 1) / HIT_EVERY, hits.rows.size());

      Scanned cursors =
          scan(served, new Scan().setFilter(matchesNothing).setNeedCursorResult(true));
      assertEquals(List.of(), cursors.rows);
      assertTrue(cursors.cursors.size() >= 2, "cursors " + cursors.cursors);
      List<String> sorted = new ArrayList<>(cursors.cursors);
      sorted.sort(null);
      assertEquals(sorted, cursors.cursors, "cursors move forward");
      assertTrue(cursors.cursors.getLast().compareTo(Bytes.toString(row(rows - 1))) <= 0);
      assertEquals(0, served.server.openScanners(), "scanners left open on the server");
    }
    try (ServedCellar served = ServedCellar.start(data, server(false), CLIENT)) {
      IOException timedOut =
          assertThrows(IOException.class, () -> scan(served, new Scan().setFilter(matchesNothing)));
      System.out.println("ScanHeartbeatInteropTest: without heartbeats: " + timedOut);
    }
  }

  /**
   * Rows [from, to), each of {@link #COLUMNS} cells, every {@link #HIT_EVERY}th holding the hit in
   * its column {@code q}: written straight into the server's database, which is quicker than
   * through the client and makes no difference to the scans.
   */
  private static void load(ServedCellar served, int from, int to) throws IOException {
    byte[] miss = bytes("miss");
    dev.cellar.Table table = served.server.database().table("t");
    List<dev.cellar.Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      dev.cellar.Put put =
          new dev.cellar.Put(row(i))
              .addColumn(F, Q, i % HIT_EVERY == 0 ? HIT : miss)
              .setDurability(dev.cellar.schema.Durability.SKIP_WAL);
      for (int c = 1; c < COLUMNS; c++) {
        put.addColumn(F, bytes("c" + c), miss);
      }
      puts.add(put);
      if (puts.size() == 1000) {
        table.put(puts);
        puts.clear();
      }
    }
    table.put(puts);
    served.server.database().admin().flush("t");
  }

  private static Scanned scan(ServedCellar served, Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    List<String> cursors = new ArrayList<>();
    long start = System.nanoTime();
    scan.setScanMetricsEnabled(true);
    try (Table table = served.connection.getTable(NAME);
        ResultScanner scanner = table.getScanner(scan)) {
      for (Result result = scanner.next(); result != null; result = scanner.next()) {
        if (result.isCursor()) {
          cursors.add(Bytes.toString(result.getCursor().getRow()));
        } else {
          rows.add(
              Bytes.toString(result.getRow())
                  + "="
                  + Bytes.toString(result.getValue(F, Q))
                  + "/"
                  + result.size());
        }
      }
      ScanMetrics metrics = scanner.getScanMetrics();
      Scanned scanned =
          new Scanned(
              rows,
              cursors,
              metrics.countOfRPCcalls.get(),
              (System.nanoTime() - start) / 1_000_000);
      System.out.printf(
          "ScanHeartbeatInteropTest: %s: %d rows, %d cursors, %d calls, %d ms%n",
          scan.getFilter(), rows.size(), cursors.size(), scanned.rpcs, scanned.millis);
      return scanned;
    }
  }

  private static List<String> embedded(ServedCellar served, dev.cellar.Scan scan)
      throws IOException {
    List<String> rows = new ArrayList<>();
    try (dev.cellar.ResultScanner scanner = served.server.database().table("t").scanner(scan)) {
      for (dev.cellar.Result result : scanner) {
        try (result) {
          rows.add(
              new String(result.row(), StandardCharsets.UTF_8)
                  + "="
                  + new String(result.getValue(F, Q), StandardCharsets.UTF_8)
                  + "/"
                  + result.size());
        }
      }
    }
    assertTrue(rows.stream().allMatch(r -> r.endsWith("=hit/1")), rows.toString());
    return rows;
  }
}
