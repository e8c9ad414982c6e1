package dev.cellar;

import static dev.cellar.BulkFixtures.bytes;
import static dev.cellar.BulkFixtures.writeHFile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.io.Storage;
import dev.cellar.metrics.RegionStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables created pre-split ({@link Admin#createTable(TableDescriptor, byte[][])}): HBase's region
 * identities, one directory per region named by its encoded name, every row in the region holding
 * it through writes, flushes, alters, reopens, exports, bulk loads and checks, and split keys
 * refused as HBase's client refuses them. Reads and writes across the boundaries against an oracle
 * are in {@code CellarRandomizedTest}'s {@code split} run, power loss in {@code
 * CellarPowerLossTest}.
 */
class PreSplitTableTest {

  private static final byte[] F = bytes("f");
  private static final byte[] Q = bytes("q");
  private static final byte[][] SPLITS = {bytes("m"), bytes("g"), bytes("t")};

  @TempDir Path root;

  private Cellar open() throws IOException {
    return Cellar.open(root.resolve("db"), CellarConfig.defaults());
  }

  private static TableDescriptor table(String name) {
    return TableDescriptor.of(name, ColumnFamilyDescriptor.of("f"));
  }

  private static void putRows(Table table, String... rows) throws IOException {
    for (String row : rows) {
      table.put(new Put(bytes(row)).addColumn(F, Q, bytes("v-" + row)));
    }
  }

  private static List<String> scanRows(Table table, Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result : scanner) {
        try (result) {
          rows.add(new String(result.row(), StandardCharsets.UTF_8));
          assertEquals(
              "v-" + rows.getLast(), new String(result.getValue(F, Q), StandardCharsets.UTF_8));
        }
      }
    }
    return rows;
  }

  @Test
  void regionsHaveHBasesKeysIdsAndNames() throws Exception {
    try (Cellar cellar = open()) {
      long before = System.currentTimeMillis();
      cellar.admin().createTable(table("ns1:t"), SPLITS);
      List<RegionInfo> regions = cellar.admin().regions("ns1:t");
      assertEquals(4, regions.size());
      String[] starts = {"", "g", "m", "t"};
      String[] ends = {"g", "m", "t", ""};
      for (int i = 0; i < 4; i++) {
        RegionInfo region = regions.get(i);
        assertEquals(starts[i], new String(region.startKey(), StandardCharsets.UTF_8));
        assertEquals(ends[i], new String(region.endKey(), StandardCharsets.UTF_8));
        assertEquals(regions.getFirst().regionId(), region.regionId(), "one id for a new table");
        assertTrue(region.regionId() >= before);
        String prefix = "ns1:t," + starts[i] + "," + region.regionId();
        String md5 =
            HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("MD5")
                        .digest(prefix.getBytes(StandardCharsets.UTF_8)));
        assertEquals(md5, region.encodedName());
        assertEquals(
            prefix + "." + md5 + ".", new String(region.regionName(), StandardCharsets.UTF_8));
      }
      assertTrue(regions.get(0).isFirst() && regions.get(3).isLast());
      assertTrue(regions.get(1).containsRow(bytes("g")) && !regions.get(1).containsRow(bytes("m")));
      cellar.admin().createTable(table("whole"));
      assertEquals(1, cellar.admin().regions("whole").size(), "no keys: one region");
    }
  }

  @Test
  void eachRegionKeepsItsRowsInItsOwnDirectory() throws IOException {
    Path tableDirectory = root.resolve("db/tables/t");
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      putRows(cellar.table("t"), "a", "b", "g", "h", "m", "s", "t", "zz");
      cellar.admin().flush("t");
      List<RegionInfo> regions = cellar.admin().regions("t");
      Set<String> expected =
          regions.stream().map(RegionInfo::encodedName).collect(Collectors.toSet());
      expected.add(".tabledesc");
      assertEquals(expected, names(tableDirectory));
      List<RegionStats> stats = cellar.engine().regionStats("t");
      assertEquals(4, stats.size());
      for (int i = 0; i < 4; i++) {
        assertEquals(1, stats.get(i).storeFiles(), "region " + i + " flushed one file");
        assertTrue(
            Files.isDirectory(tableDirectory.resolve(regions.get(i).encodedName()).resolve("f")));
      }
    }
    try (Cellar cellar = open()) {
      assertEquals(
          List.of("a", "b", "g", "h", "m", "s", "t", "zz"),
          scanRows(cellar.table("t"), new Scan()));
      assertEquals(4, cellar.admin().regions("t").size(), "the regions outlive a reopen");
    }
  }

  @Test
  void aRegionFlushesAndCompactsAlone() throws IOException {
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      putRows(cellar.table("t"), "a", "h", "n", "zz");
      List<RegionInfo> regions = cellar.admin().regions("t");
      cellar.admin().flushRegion(regions.get(1).regionName());
      List<RegionStats> stats = cellar.engine().regionStats("t");
      assertEquals(List.of(0, 1, 0, 0), stats.stream().map(RegionStats::storeFiles).toList());
      putRows(cellar.table("t"), "i");
      cellar.admin().flushRegion(regions.get(1).regionName());
      cellar.admin().compactRegion(regions.get(1).regionName(), true);
      assertEquals(1, cellar.engine().regionStats("t").get(1).storeFiles(), "compacted into one");
      IllegalArgumentException unknown =
          assertThrows(
              IllegalArgumentException.class,
              () -> cellar.admin().flushRegion(bytes("t,,1.nosuch.")));
      assertTrue(unknown.getMessage().contains("no region is named"), unknown.getMessage());
    }
  }

  @Test
  void scansGetsAndBatchesCrossRegionBoundaries() throws IOException {
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      Table table = cellar.table("t");
      List<Put> batch = new ArrayList<>();
      for (String row : new String[] {"zz", "a", "m", "f", "g", "t", "l"}) {
        batch.add(new Put(bytes(row)).addColumn(F, Q, bytes("v-" + row)));
      }
      table.batch(batch);
      List<String> all = List.of("a", "f", "g", "l", "m", "t", "zz");
      assertEquals(all, scanRows(table, new Scan()));
      assertEquals(
          List.of("g", "l", "m"),
          scanRows(table, new Scan().withStartRow(bytes("g")).withStopRow(bytes("m"), true)));
      assertEquals(
          List.of("f", "g", "l"),
          scanRows(table, new Scan().withStartRow(bytes("b")).withStopRow(bytes("m"))));
      assertEquals(
          List.of("zz", "t", "m", "l", "g", "f", "a"),
          scanRows(table, new Scan().setReversed(true)));
      assertEquals(
          List.of("m", "l", "g"),
          scanRows(
              table,
              new Scan().setReversed(true).withStartRow(bytes("m")).withStopRow(bytes("f"))));
      assertEquals(List.of("a", "f", "g"), scanRows(table, new Scan().setLimit(3)));
      for (String row : all) {
        try (Result result = table.get(new Get(bytes(row)))) {
          assertArrayEquals(bytes("v-" + row), result.getValue(F, Q), row);
        }
      }
      try (RowReader reader = table.rowReader()) {
        for (String row : List.of("zz", "a", "m", "nothing")) {
          RowView view = reader.getView(new Get(bytes(row)));
          assertEquals(!row.equals("nothing"), !view.isEmpty(), row);
        }
      }
      assertTrue(
          table.checkAndMutate(
              F,
              Q,
              dev.cellar.filter.CompareOperator.EQUAL,
              bytes("v-t"),
              new Put(bytes("t")).addColumn(F, Q, bytes("changed"))));
      table.delete(new Delete(bytes("g")));
      try (Result result = table.get(new Get(bytes("t")))) {
        assertArrayEquals(bytes("changed"), result.getValue(F, Q));
      }
      try (Result result = table.get(new Get(bytes("g")))) {
        assertTrue(result.isEmpty());
      }
    }
  }

  @Test
  void splitKeysAreCheckedAsHBasesClientChecksThem() throws IOException {
    try (Cellar cellar = open()) {
      IllegalArgumentException empty =
          assertThrows(
              IllegalArgumentException.class,
              () -> cellar.admin().createTable(table("t"), new byte[][] {bytes("a"), new byte[0]}));
      assertTrue(empty.getMessage().contains("is empty"), empty.getMessage());
      IllegalArgumentException repeated =
          assertThrows(
              IllegalArgumentException.class,
              () -> cellar.admin().createTable(table("t"), new byte[][] {bytes("b"), bytes("b")}));
      assertTrue(repeated.getMessage().contains("is repeated"), repeated.getMessage());
      assertFalse(cellar.admin().tableExists("t"));
      assertFalse(Files.exists(root.resolve("db/tables/t")));
    }
  }

  @Test
  void altersReachEveryRegionAndDropsForgetThem() throws IOException {
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      putRows(cellar.table("t"), "a", "h", "zz");
      cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("g"));
      for (String row : List.of("b", "n", "u")) {
        cellar.table("t").put(new Put(bytes(row)).addColumn(bytes("g"), Q, bytes(row)));
      }
    }
    try (Cellar cellar = open()) {
      assertEquals(4, cellar.admin().regions("t").size());
      for (String row : List.of("b", "n", "u")) {
        try (Result result = cellar.table("t").get(new Get(bytes(row)))) {
          assertArrayEquals(bytes(row), result.getValue(bytes("g"), Q));
        }
      }
      cellar.admin().deleteFamily("t", "g");
      assertEquals(List.of("a", "h", "zz"), scanRows(cellar.table("t"), new Scan()));
      cellar.admin().dropTable("t");
      cellar.admin().createTable(table("t"));
      assertEquals(List.of(), scanRows(cellar.table("t"), new Scan()));
    }
    try (Cellar cellar = open()) {
      assertEquals(List.of(), scanRows(cellar.table("t"), new Scan()), "nothing replayed");
      assertEquals(1, cellar.admin().regions("t").size());
    }
  }

  @Test
  void exportsAndBulkLoadsGoRegionByRegion() throws IOException {
    Path out = root.resolve("export");
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      putRows(cellar.table("t"), "a", "b", "h", "n", "u", "zz");
      TableExport.export(cellar, "t", out, List.of(), line -> {});
      cellar.admin().createTable(table("copy"), SPLITS);
      BulkLoad.load(cellar, "copy", out, false, line -> {});
      assertEquals(
          scanRows(cellar.table("t"), new Scan()), scanRows(cellar.table("copy"), new Scan()));
      List<RegionStats> stats = cellar.engine().regionStats("copy");
      for (RegionStats region : stats) {
        assertEquals(1, region.storeFiles(), "each region loaded its own file");
      }
    }
  }

  @Test
  void aBulkLoadedFileSpanningRegionsIsRefusedWithTheBoundary() throws IOException {
    Path dir = root.resolve("bulk");
    writeHFile(dir.resolve("f/0abc"), "f", "k", 10, "v");
    writeHFile(dir.resolve("f/1abc"), "f", "a", 10, "v");
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), new byte[][] {bytes("k00005")});
      BulkLoadException refused =
          assertThrows(
              BulkLoadException.class, () -> BulkLoad.load(cellar, "t", dir, false, line -> {}));
      assertTrue(refused.getMessage().contains("0abc"), refused.getMessage());
      assertTrue(refused.getMessage().contains("span the regions"), refused.getMessage());
      assertTrue(refused.getMessage().contains("k00005"), refused.getMessage());
      assertEquals(List.of(), scanRows(cellar.table("t"), new Scan()), "nothing loaded");
    }
  }

  @Test
  void theCheckReadsEveryRegionAndNamesAStrayDirectory() throws IOException {
    Path database = root.resolve("db");
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      putRows(cellar.table("t"), "a", "h", "n", "zz");
      cellar.admin().flush("t");
    }
    DatabaseCheck.Report clean = DatabaseCheck.check(database);
    assertEquals(List.of(), clean.problems());
    assertEquals(4, clean.hfiles());
    Files.createDirectories(database.resolve("tables/t/0123456789abcdef0123456789abcdef/f"));
    Files.writeString(database.resolve("tables/t/0123456789abcdef0123456789abcdef/f/x"), "x");
    List<String> problems = DatabaseCheck.check(database).problems();
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.getFirst().contains("not a region of the table"), problems.toString());
  }

  @Test
  void aDescriptorWhoseRegionsDoNotCoverTheTableIsRefused() throws IOException {
    Path database = root.resolve("db");
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
    }
    Path descriptor = database.resolve("tables/t/.tabledesc");
    List<String> lines = new ArrayList<>(Files.readAllLines(descriptor));
    String first =
        lines.stream()
            .filter(line -> line.startsWith("region.") && line.endsWith(","))
            .findFirst()
            .orElseThrow();
    lines.remove(first);
    lines.removeIf(line -> line.startsWith("checksum="));
    Files.write(descriptor, lines);
    IOException refused = assertThrows(IOException.class, this::open);
    assertTrue(
        refused.getMessage().contains("no region starts at the table's first row"),
        refused.getMessage());
  }

  @Test
  void eachRegionDirectoryHoldsHBasesRegionInfoAndARepairRebuildsALostDescriptorFromThem()
      throws IOException {
    Path database = root.resolve("db");
    List<RegionInfo> regions;
    try (Cellar cellar = open()) {
      cellar.admin().createTable(table("t"), SPLITS);
      putRows(cellar.table("t"), "a", "h", "n", "zz");
      cellar.admin().flush("t");
      putRows(cellar.table("t"), "b", "u");
      regions = cellar.admin().regions("t");
    }
    for (RegionInfo region : regions) {
      Path directory = database.resolve("tables/t").resolve(region.encodedName());
      assertEquals(region, RegionInfoFile.read(Storage.local(), directory));
      byte[] file = Files.readAllBytes(directory.resolve(".regioninfo"));
      assertEquals("PBUF", new String(file, 0, 4, StandardCharsets.US_ASCII));
    }
    Files.delete(database.resolve("tables/t/.tabledesc"));
    DatabaseRepair.Report report =
        DatabaseRepair.repair(database.toString(), CellarConfig.defaults(), false);
    assertTrue(
        report.steps().stream().anyMatch(step -> step.contains(".tabledesc")),
        report.steps().toString());
    try (Cellar cellar = open()) {
      assertEquals(regions, cellar.admin().regions("t"));
      assertEquals(List.of("a", "b", "h", "n", "u", "zz"), scanRows(cellar.table("t"), new Scan()));
    }
  }

  private static Set<String> names(Path directory) throws IOException {
    try (Stream<Path> children = Files.list(directory)) {
      return children.map(path -> path.getFileName().toString()).collect(Collectors.toSet());
    }
  }
}
