package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.Database;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's own client (2.6.1) on tables created pre-split through {@code cellar serve}: {@code
 * createTable(desc, splitKeys)} and {@code createTable(desc, start, end, n)}, hbase:meta listing
 * every region with the names HBase computes for them, and puts, gets, batches, multi-gets and
 * scans (forward, reversed, bounded, limited, with small caching so that scans cross boundaries
 * between calls) checked against an oracle; Cellar's own client reads the same regions. The seed of
 * the random rows is printed on failure.
 */
@ExtendWith(TestSeedExtension.class)
class PreSplitInteropTest {

  private static final byte[] F = bytes("f");
  private static final byte[] Q = bytes("q");
  private static final TableName T = TableName.valueOf("t");

  @TempDir Path dir;
  private ServedCellar served;
  private Admin admin;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static TableDescriptor descriptor(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build();
  }

  @BeforeEach
  void start() throws IOException {
    served = ServedCellar.start(dir);
    admin = served.connection.getAdmin();
  }

  @AfterEach
  void stop() throws IOException {
    admin.close();
    served.close();
  }

  @Test
  void metaListsEveryRegionWithTheNamesHBaseComputes() throws IOException {
    byte[][] splits = {bytes("g"), bytes("n"), bytes("t")};
    admin.createTable(descriptor(T), splits);
    List<RegionInfo> regions = admin.getRegions(T);
    assertEquals(4, regions.size());
    byte[][] starts = {new byte[0], bytes("g"), bytes("n"), bytes("t")};
    for (int i = 0; i < 4; i++) {
      RegionInfo region = regions.get(i);
      assertArrayEquals(starts[i], region.getStartKey());
      RegionInfo expected =
          RegionInfoBuilder.newBuilder(T)
              .setStartKey(starts[i])
              .setEndKey(i == 3 ? new byte[0] : starts[i + 1])
              .setRegionId(region.getRegionId())
              .build();
      assertArrayEquals(expected.getRegionName(), region.getRegionName());
      assertEquals(expected.getEncodedName(), region.getEncodedName());
    }
    try (RegionLocator locator = served.connection.getRegionLocator(T)) {
      assertEquals(4, locations().size());
      assertEquals(
          regions.get(2).getEncodedName(),
          locator.getRegionLocation(bytes("p")).getRegion().getEncodedName());
    }
    assertTrue(admin.isTableAvailable(T));
    assertEquals(4, admin.getRegionMetrics(locations().getFirst().getServerName(), T).size());
  }

  @Test
  void hbasesAdminFlushesAndCompactsOneRegion() throws Exception {
    admin.createTable(descriptor(T), new byte[][] {bytes("g"), bytes("n")});
    try (Table table = served.connection.getTable(T)) {
      for (String row : List.of("a", "h", "p")) {
        table.put(new Put(bytes(row)).addColumn(F, Q, bytes(row)));
      }
    }
    List<RegionInfo> regions = admin.getRegions(T);
    admin.flushRegion(regions.get(1).getRegionName());
    List<Integer> files = new ArrayList<>();
    for (RegionInfo region : regions) {
      files.add(
          admin.getRegionMetrics(locations().getFirst().getServerName(), T).stream()
              .filter(metrics -> Bytes.equals(metrics.getRegionName(), region.getRegionName()))
              .findFirst()
              .orElseThrow()
              .getStoreFileCount());
    }
    assertEquals(List.of(0, 1, 0), files, "only the named region flushed");
    admin.flush(T);
    admin.majorCompactRegion(regions.get(2).getRegionName());
  }

  @Test
  void wideRowsComeInPartsAndChecksApplyInEveryRegion() throws Exception {
    admin.createTable(descriptor(T), new byte[][] {bytes("g"), bytes("n")});
    try (Table table = served.connection.getTable(T)) {
      for (String row : List.of("a", "h", "p")) {
        Put put = new Put(bytes(row));
        for (int c = 0; c < 40; c++) {
          put.addColumn(F, bytes(String.format("c%02d", c)), new byte[1000]);
        }
        table.put(put);
      }
      Map<String, Integer> cells = new TreeMap<>();
      int results = 0;
      try (ResultScanner scanner =
          table.getScanner(
              new Scan().setAllowPartialResults(true).setMaxResultSize(4096).setCaching(2))) {
        for (Result part : scanner) {
          results++;
          cells.merge(Bytes.toString(part.getRow()), part.size(), Integer::sum);
        }
      }
      assertEquals(Map.of("a", 40, "h", 40, "p", 40), cells);
      assertTrue(results > 3, "the rows came in parts: " + results + " results");
      Map<String, Integer> batched = new TreeMap<>();
      try (ResultScanner scanner = table.getScanner(new Scan().setBatch(7).setReversed(true))) {
        for (Result part : scanner) {
          assertTrue(part.size() <= 7);
          batched.merge(Bytes.toString(part.getRow()), part.size(), Integer::sum);
        }
      }
      assertEquals(cells, batched);
      for (String row : List.of("a", "h", "p")) {
        assertTrue(
            table
                .checkAndMutate(
                    CheckAndMutate.newBuilder(bytes(row))
                        .ifEquals(F, bytes("c00"), new byte[1000])
                        .build(new Put(bytes(row)).addColumn(F, Q, bytes("checked " + row))))
                .isSuccess(),
            row);
        assertEquals(
            "checked " + row, Bytes.toString(table.get(new Get(bytes(row))).getValue(F, Q)));
      }
    }
  }

  @Test
  void createTableWithARangeSplitsItAsHBaseDoes() throws IOException {
    TableName u = TableName.valueOf("u");
    admin.createTable(descriptor(u), bytes("00000000"), bytes("99999999"), 5);
    List<RegionInfo> regions = admin.getRegions(u);
    assertEquals(5, regions.size());
    byte[][] expected = Bytes.split(bytes("00000000"), bytes("99999999"), 2);
    for (int i = 1; i < 5; i++) {
      assertArrayEquals(expected[i - 1], regions.get(i).getStartKey(), "region " + i);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> admin.createTable(descriptor(TableName.valueOf("v")), new byte[][] {bytes("a"), {}}));
  }

  @Test
  void readsAndWritesCrossRegionBoundariesAsAgainstHBase(TestSeed seed) throws Exception {
    admin.createTable(
        descriptor(T), new byte[][] {bytes("row-25"), bytes("row-50"), bytes("row-75")});
    Random random = new Random(seed.value());
    NavigableMap<String, String> oracle = new TreeMap<>();
    try (Table table = served.connection.getTable(T)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        String row = String.format("row-%02d", random.nextInt(100));
        String value = "v" + i;
        puts.add(new Put(bytes(row)).addColumn(F, Q, bytes(value)));
        oracle.put(row, value);
      }
      table.put(puts);
      List<Row> deletes = new ArrayList<>();
      for (String row : new ArrayList<>(oracle.keySet()).subList(0, 10)) {
        if (random.nextBoolean()) {
          deletes.add(new Delete(bytes(row)));
          oracle.remove(row);
        }
      }
      table.batch(deletes, new Object[deletes.size()]);
      assertEquals(oracle, scan(table, new Scan().setCaching(3)));
      for (int round = 0; round < 20; round++) {
        String low = String.format("row-%02d", random.nextInt(100));
        String high = String.format("row-%02d", random.nextInt(100));
        if (low.compareTo(high) > 0) {
          String swap = low;
          low = high;
          high = swap;
        }
        boolean inclusive = random.nextBoolean();
        assertEquals(
            oracle.subMap(low, true, high, inclusive),
            scan(
                table,
                new Scan()
                    .withStartRow(bytes(low))
                    .withStopRow(bytes(high), inclusive)
                    .setCaching(1 + random.nextInt(4))),
            "scan [" + low + ", " + high + (inclusive ? "]" : ")"));
        assertEquals(
            oracle.subMap(low, false, high, true).descendingMap(),
            scan(
                table,
                new Scan()
                    .setReversed(true)
                    .withStartRow(bytes(high))
                    .withStopRow(bytes(low))
                    .setCaching(1 + random.nextInt(4))),
            "reversed scan from " + high + " down to " + low);
      }
      assertEquals(oracle.descendingMap(), scan(table, new Scan().setReversed(true).setCaching(2)));
      Map<String, String> firstFive = new TreeMap<>();
      oracle.entrySet().stream().limit(5).forEach(e -> firstFive.put(e.getKey(), e.getValue()));
      assertEquals(firstFive, scan(table, new Scan().setLimit(5).setCaching(2)));
      List<Get> gets = new ArrayList<>();
      for (int i = 0; i < 100; i += 7) {
        gets.add(new Get(bytes(String.format("row-%02d", i))));
      }
      Result[] results = table.get(gets);
      for (int i = 0; i < gets.size(); i++) {
        String row = Bytes.toString(gets.get(i).getRow());
        String value = oracle.get(row);
        assertEquals(
            value,
            results[i].isEmpty() ? null : Bytes.toString(results[i].getValue(F, Q)),
            "multi-get " + row);
      }
    }
    try (Database cellar = Cellar.connect(served.server.hostAndPort())) {
      NavigableMap<String, String> seen = new TreeMap<>();
      try (dev.cellar.ResultScanner scanner =
          cellar.table("t").scanner(new dev.cellar.Scan().setCaching(2))) {
        for (dev.cellar.Result result : scanner) {
          try (result) {
            seen.put(Bytes.toString(result.row()), Bytes.toString(result.getValue(F, Q)));
          }
        }
      }
      assertEquals(oracle, seen, "Cellar's client scans every region");
      assertEquals(4, cellar.admin().regions("t").size());
    }
  }

  private List<HRegionLocation> locations() throws IOException {
    try (RegionLocator locator = served.connection.getRegionLocator(T)) {
      return locator.getAllRegionLocations();
    }
  }

  private static NavigableMap<String, String> scan(Table table, Scan scan) throws IOException {
    NavigableMap<String, String> rows =
        scan.isReversed() ? new TreeMap<String, String>().descendingMap() : new TreeMap<>();
    List<String> order = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result result : scanner) {
        String row = Bytes.toString(result.getRow());
        order.add(row);
        rows.put(row, Bytes.toString(result.getValue(F, Q)));
      }
    }
    List<String> sorted = new ArrayList<>(order);
    sorted.sort(scan.isReversed() ? Comparator.reverseOrder() : Comparator.naturalOrder());
    assertEquals(sorted, order, "rows come in order, each once");
    assertEquals(order.size(), rows.size(), "no row twice");
    return rows;
  }
}
