package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.BulkLoad;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.TableDescriptor;
import dev.cellar.TableExport;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.cli.CellarCommand;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables moved between Cellar and a running Apache HBase 2.6.1 ({@link HBaseCluster}) with each
 * side's own tool: {@code cellar export} loaded by HBase's {@code BulkLoadHFilesTool}, an HBase
 * region directory loaded by {@code cellar bulkload}, and a round trip through HBase's major
 * compaction that keeps tags. Each time, HBase's client and Cellar's scan read the same cells.
 */
class BulkLoadInteropTest {

  private static final List<String> FAMILIES = List.of("a", "b", "c");
  private static final byte[][] SPLITS = {bytes("row-0400"), bytes("row-0800")};

  @TempDir static Path root;
  private static HBaseCluster hbase;

  @BeforeAll
  static void startHBase() throws Exception {
    hbase = HBaseCluster.start(root.resolve("cluster"));
  }

  @AfterAll
  static void stopHBase() throws IOException {
    if (hbase != null) {
      hbase.close();
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Cellar openCellar(Path directory) throws IOException {
    return Cellar.open(directory, CellarConfig.defaults()
        .with("hfile.block.cache.memory.size", "8m"));
  }

  /** The three families' settings by HBase's attribute names: encodings, codecs, versions. */
  private static Map<String, String> attributes(String family) {
    return switch (family) {
      case "a" -> Map.of("VERSIONS", "3", "DATA_BLOCK_ENCODING", "FAST_DIFF", "COMPRESSION",
          "GZ", "BLOCKSIZE", "4096", "BLOOMFILTER", "ROW");
      case "b" -> Map.of("VERSIONS", "1", "DATA_BLOCK_ENCODING", "NONE", "COMPRESSION",
          "SNAPPY", "BLOOMFILTER", "ROWCOL");
      default -> Map.of("VERSIONS", "2", "DATA_BLOCK_ENCODING", "ROW_INDEX_V1", "COMPRESSION",
          "ZSTD", "BLOOMFILTER", "NONE", "BLOCKSIZE", "8192");
    };
  }

  private static TableDescriptor cellarTable(String name) {
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    for (String family : FAMILIES) {
      families.add(ColumnFamilyDescriptor.of(family, attributes(family)));
    }
    return new TableDescriptor(name, families);
  }

  private static org.apache.hadoop.hbase.client.TableDescriptor hbaseTable(TableName name) {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
    for (String family : FAMILIES) {
      Map<String, String> attributes = attributes(family);
      table.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(bytes(family))
          .setMaxVersions(Integer.parseInt(attributes.get("VERSIONS")))
          .setDataBlockEncoding(DataBlockEncoding.valueOf(attributes.get("DATA_BLOCK_ENCODING")))
          .setCompressionType(Compression.Algorithm.valueOf(attributes.get("COMPRESSION")))
          .setBloomFilterType(BloomType.valueOf(attributes.get("BLOOMFILTER")))
          .setBlocksize(Integer.parseInt(attributes.getOrDefault("BLOCKSIZE", "65536")))
          .build());
    }
    return table.build();
  }

  /** One random operation on a row: a put of several versions, or a column or family delete. */
  private record Operation(String row, String family, String qualifier, long timestamp, int kind,
      String value) {}

  private static List<Operation> operations(long seed, int count) {
    Random random = new Random(seed);
    List<Operation> operations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      operations.add(new Operation("row-%04d".formatted(random.nextInt(1200)),
          FAMILIES.get(random.nextInt(FAMILIES.size())), "q" + random.nextInt(3),
          1_000 + random.nextInt(6), random.nextInt(12), "value-" + i + "-" + seed));
    }
    return operations;
  }

  /** Every version of every cell HBase's client reads, in Cellar's dump format (no tags). */
  private static List<String> hbaseDump(TableName name) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Table table = hbase.connection().getTable(name);
        org.apache.hadoop.hbase.client.ResultScanner scanner =
            table.getScanner(new Scan().readAllVersions())) {
      for (org.apache.hadoop.hbase.client.Result result : scanner) {
        for (Cell cell : result.rawCells()) {
          lines.add(line(CellUtil.cloneRow(cell), CellUtil.cloneFamily(cell),
              CellUtil.cloneQualifier(cell), cell.getTimestamp(), cell.getType().name(),
              CellUtil.cloneValue(cell), new byte[0]));
        }
      }
    }
    return lines;
  }

  /** Every version of every cell Cellar's scan reads, tags included. */
  private static List<String> cellarDump(dev.cellar.Table table, int versions)
      throws IOException {
    List<String> lines = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(new dev.cellar.Scan().readVersions(versions))) {
      for (Result next = scanner.next(); next != null; next = scanner.next()) {
        try (Result result = next) {
          for (dev.cellar.cell.Cell cell : result.rawCells()) {
            lines.add(line(cell.rowArray(), cell.familyArray(), cell.qualifierArray(),
                cell.timestamp(), cell.type().name(), cell.valueArray(), cell.tagsArray()));
          }
        }
      }
    }
    return lines;
  }

  private static String line(byte[] row, byte[] family, byte[] qualifier, long timestamp,
      String type, byte[] value, byte[] tags) {
    return Bytes.toStringBinary(row) + "/" + new String(family, StandardCharsets.UTF_8) + ":"
        + Bytes.toStringBinary(qualifier) + "/" + timestamp + "/" + type.toUpperCase(Locale.ROOT)
        + "=" + Bytes.toStringBinary(value)
        + (tags.length > 0 ? " tags " + Bytes.toStringBinary(tags) : "");
  }

  private static List<Long> sizes(List<File> files) {
    return files.stream().map(File::length).sorted().toList();
  }

  private static List<File> exported(Path family) throws IOException {
    try (Stream<Path> files = Files.list(family)) {
      return files.map(Path::toFile).toList();
    }
  }

  @Test
  void hbasesBulkLoadToolLoadsAnExportUnchanged() throws Exception {
    long seed = TestCells.seed();
    String replay = TestCells.replay(seed);
    Path out = root.resolve("export");
    Path outForNewTable = root.resolve("export-new");
    List<String> expected;
    List<String> expectedLatest;
    try (Cellar cellar = openCellar(root.resolve("cellar-export"))) {
      cellar.admin().createTable(cellarTable("t"));
      dev.cellar.Table table = cellar.table("t");
      List<Operation> operations = operations(seed, 6000);
      for (int i = 0; i < operations.size(); i++) {
        Operation op = operations.get(i);
        if (op.kind() == 0) {
          table.delete(new dev.cellar.Delete(bytes(op.row())).addFamily(bytes(op.family())));
        } else if (op.kind() == 1) {
          table.delete(new dev.cellar.Delete(bytes(op.row())).addColumns(bytes(op.family()),
              bytes(op.qualifier()), op.timestamp()));
        } else {
          table.put(new dev.cellar.Put(bytes(op.row())).addColumn(bytes(op.family()),
              bytes(op.qualifier()), op.timestamp(), bytes(op.value())));
        }
        if (i == operations.size() / 3) {
          cellar.admin().flush("t");
        }
      }
      expected = cellarDump(table, Integer.MAX_VALUE);
      expectedLatest = cellarDump(table, 1);
      TableExport.export(cellar, "t", out, List.of(SPLITS), line -> { });
      TableExport.export(cellar, "t", outForNewTable, List.of(), line -> { });
    }
    assertTrue(expected.size() > expectedLatest.size(), "several versions: " + replay);

    TableName name = TableName.valueOf("exported");
    try (Admin admin = hbase.connection().getAdmin()) {
      admin.createTable(hbaseTable(name), SPLITS);
    }
    assertFalse(BulkLoadHFiles.create(hbase.conf()).bulkLoad(name,
        new org.apache.hadoop.fs.Path(out.toUri())).isEmpty(), "HBase's tool loaded nothing");
    assertEquals(expected, hbaseDump(name), replay);
    for (String family : FAMILIES) {
      assertEquals(sizes(exported(out.resolve(family))), sizes(hbase.storeFiles(name, family)),
          "family " + family + ": HBase kept the exported files as they are");
    }

    TableName created = TableName.valueOf("created");
    assertFalse(BulkLoadHFiles.create(hbase.conf()).bulkLoad(created,
        new org.apache.hadoop.fs.Path(outForNewTable.toUri())).isEmpty());
    assertEquals(expectedLatest, hbaseDump(created), "HBase's own table keeps one version; "
        + replay);
  }

  @Test
  void cellarBulkloadLoadsAFlushedHBaseRegion() throws Exception {
    long seed = TestCells.seed();
    TableName name = TableName.valueOf("written");
    try (Admin admin = hbase.connection().getAdmin();
        Table table = hbase.connection().getTable(name)) {
      admin.createTable(hbaseTable(name));
      List<Put> puts = new ArrayList<>();
      List<Delete> deletes = new ArrayList<>();
      for (Operation op : operations(seed, 4000)) {
        if (op.kind() == 0) {
          deletes.add(new Delete(bytes(op.row())).addFamily(bytes(op.family())));
        } else if (op.kind() == 1) {
          deletes.add(new Delete(bytes(op.row())).addColumns(bytes(op.family()),
              bytes(op.qualifier()), op.timestamp()));
        } else {
          puts.add(new Put(bytes(op.row())).addColumn(bytes(op.family()),
              bytes(op.qualifier()), op.timestamp(), bytes(op.value())));
        }
        if (puts.size() == 500) {
          table.put(puts);
          table.delete(deletes);
          puts.clear();
          deletes.clear();
        }
      }
      table.put(puts);
      table.delete(deletes);
      admin.flush(name);
    }
    List<String> expected = hbaseDump(name);
    List<Path> regions = hbase.regionDirectories(name);
    assertEquals(1, regions.size(), regions::toString);
    assertTrue(Files.exists(regions.getFirst().resolve(".regioninfo")));

    Path database = root.resolve("cellar-import");
    try (Cellar cellar = openCellar(database)) {
      cellar.admin().createTable(cellarTable("written"));
    }
    int exit = CellarCommand.commandLine().execute("bulkload", "--dir", database.toString(),
        "--table", "written", regions.getFirst().toString());
    assertEquals(0, exit);
    try (Cellar cellar = openCellar(database)) {
      assertEquals(expected, cellarDump(cellar.table("written"), Integer.MAX_VALUE),
          TestCells.replay(seed));
    }
  }

  @Test
  void aRoundTripThroughHBasesCompactionKeepsTags() throws Exception {
    Path source = root.resolve("tagged/f/0001");
    Files.createDirectories(source.getParent());
    try (HFileWriter writer = HFileWriter.create(source,
        HFileContext.builder().includesTags(true).build())) {
      for (int i = 0; i < 500; i++) {
        byte[] row = bytes("row-%04d".formatted(i));
        writer.append(KeyValue.create(row, bytes("f"), bytes("q"), 5_000 + i, CellType.PUT,
            bytes("value " + i), List.of(new Tag((byte) 7, row), new Tag((byte) 9,
                bytes("t" + i)))));
      }
    }
    Path out = root.resolve("tagged-export");
    List<String> expected;
    try (Cellar cellar = openCellar(root.resolve("cellar-tagged"))) {
      BulkLoad.load(cellar, "tagged", source.getParent().getParent(), false, line -> { });
      expected = cellarDump(cellar.table("tagged"), Integer.MAX_VALUE);
      TableExport.export(cellar, "tagged", out, List.of(), line -> { });
    }
    assertTrue(expected.getFirst().endsWith(" tags \\x00\\x09\\x07row-0000\\x00\\x03\\x09t0"),
        expected::getFirst);

    TableName name = TableName.valueOf("tagged");
    assertFalse(BulkLoadHFiles.create(hbase.conf()).bulkLoad(name,
        new org.apache.hadoop.fs.Path(out.toUri())).isEmpty());
    try (Admin admin = hbase.connection().getAdmin()) {
      admin.majorCompact(name);
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (hbase.storeFiles(name, "f").stream().anyMatch(f -> f.getName().contains("_SeqId_"))
          || admin.getCompactionState(name) != CompactionState.NONE) {
        assertTrue(System.nanoTime() < deadline, "HBase's major compaction did not finish");
        Thread.sleep(200);
      }
    }
    assertEquals(expected.stream().map(line -> line.substring(0, line.indexOf(" tags ")))
        .toList(), hbaseDump(name));

    Path back = root.resolve("cellar-back");
    try (Cellar cellar = openCellar(back)) {
      BulkLoad.load(cellar, "tagged", hbase.regionDirectories(name).getFirst(), false,
          line -> { });
      assertEquals(expected, cellarDump(cellar.table("tagged"), Integer.MAX_VALUE));
    }
  }
}
