package dev.cellar.interop;

import static dev.cellar.interop.BulkLoadTables.FAMILIES;
import static dev.cellar.interop.BulkLoadTables.SPLITS;
import static dev.cellar.interop.BulkLoadTables.bytes;
import static dev.cellar.interop.BulkLoadTables.cellarDump;
import static dev.cellar.interop.BulkLoadTables.cellarTable;
import static dev.cellar.interop.BulkLoadTables.hbaseDump;
import static dev.cellar.interop.BulkLoadTables.hbaseFileDump;
import static dev.cellar.interop.BulkLoadTables.hbaseTable;
import static dev.cellar.interop.BulkLoadTables.operations;
import static dev.cellar.interop.BulkLoadTables.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.BulkLoad;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.TableExport;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.cli.CellarCommand;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables moved between Cellar and a running Apache HBase 2.6.1 ({@link HBaseCluster}) with each
 * side's own tool: {@code cellar export} loaded by HBase's {@code BulkLoadHFilesTool}, an HBase
 * region directory loaded by {@code cellar bulkload}, and round trips that keep tags: Cellar to
 * HBase, through HBase's major compaction, back to Cellar and to HBase again, where HBase's own
 * reader finds every tag in its store files. Each time, HBase's client and Cellar's scan read the
 * same cells.
 */
@ExtendWith(TestSeedExtension.class)
class BulkLoadInteropTest {

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

  private static Cellar openCellar(Path directory) throws IOException {
    return Cellar.open(
        directory, CellarConfig.defaults().with("hfile.block.cache.memory.size", "8m"));
  }

  private static List<Long> sizes(List<File> files) {
    return files.stream().map(File::length).sorted().toList();
  }

  private static List<Long> storeFileSizes(TableName table, String family) throws IOException {
    return hbase.storeFiles(table, family).stream().map(FileStatus::getLen).sorted().toList();
  }

  private static Path regionDirectory(TableName table) throws IOException {
    List<org.apache.hadoop.fs.Path> regions = hbase.regionDirectories(table);
    assertEquals(1, regions.size(), regions::toString);
    return Path.of(regions.getFirst().toUri());
  }

  private static List<File> exported(Path family) throws IOException {
    try (Stream<Path> files = Files.list(family)) {
      return files.map(Path::toFile).toList();
    }
  }

  @Test
  void hbasesBulkLoadToolLoadsAnExportUnchanged(TestSeed seed) throws Exception {
    Path out = root.resolve("export");
    Path outForNewTable = root.resolve("export-new");
    List<String> expected;
    List<String> expectedLatest;
    try (Cellar cellar = openCellar(root.resolve("cellar-export"))) {
      cellar.admin().createTable(cellarTable("t"));
      write(cellar, "t", operations(seed.value(), 6000));
      dev.cellar.Table table = cellar.table("t");
      expected = cellarDump(table, Integer.MAX_VALUE);
      expectedLatest = cellarDump(table, 1);
      TableExport.export(cellar, "t", out, List.of(SPLITS), line -> {});
      TableExport.export(cellar, "t", outForNewTable, List.of(), line -> {});
    }
    assertTrue(expected.size() > expectedLatest.size(), "several versions");

    TableName name = TableName.valueOf("exported");
    try (Admin admin = hbase.connection().getAdmin()) {
      admin.createTable(hbaseTable(name), SPLITS);
    }
    assertFalse(
        BulkLoadHFiles.create(hbase.conf())
            .bulkLoad(name, new org.apache.hadoop.fs.Path(out.toUri()))
            .isEmpty(),
        "HBase's tool loaded nothing");
    assertEquals(expected, hbaseDump(hbase.connection(), name));
    for (String family : FAMILIES) {
      assertEquals(
          sizes(exported(out.resolve(family))),
          storeFileSizes(name, family),
          "family " + family + ": HBase kept the exported files as they are");
    }

    TableName created = TableName.valueOf("created");
    assertFalse(
        BulkLoadHFiles.create(hbase.conf())
            .bulkLoad(created, new org.apache.hadoop.fs.Path(outForNewTable.toUri()))
            .isEmpty());
    assertEquals(
        expectedLatest,
        hbaseDump(hbase.connection(), created),
        "HBase's own table keeps one version");
  }

  @Test
  void cellarBulkloadLoadsAFlushedHBaseRegion(TestSeed seed) throws Exception {
    TableName name = TableName.valueOf("written");
    try (Admin admin = hbase.connection().getAdmin();
        Table table = hbase.connection().getTable(name)) {
      admin.createTable(hbaseTable(name));
      List<Put> puts = new ArrayList<>();
      List<Delete> deletes = new ArrayList<>();
      for (BulkLoadTables.Operation op : operations(seed.value(), 4000)) {
        if (op.deletesFamily()) {
          deletes.add(new Delete(bytes(op.row())).addFamily(bytes(op.family())));
        } else if (op.deletesColumn()) {
          deletes.add(
              new Delete(bytes(op.row()))
                  .addColumns(bytes(op.family()), bytes(op.qualifier()), op.timestamp()));
        } else {
          puts.add(
              new Put(bytes(op.row()))
                  .addColumn(
                      bytes(op.family()),
                      bytes(op.qualifier()),
                      op.timestamp(),
                      bytes(op.value())));
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
    List<String> expected = hbaseDump(hbase.connection(), name);
    Path region = regionDirectory(name);
    assertTrue(Files.exists(region.resolve(".regioninfo")));

    Path database = root.resolve("cellar-import");
    try (Cellar cellar = openCellar(database)) {
      cellar.admin().createTable(cellarTable("written"));
    }
    int exit =
        CellarCommand.commandLine()
            .execute(
                "bulkload", "--dir", database.toString(), "--table", "written", region.toString());
    assertEquals(0, exit);
    try (Cellar cellar = openCellar(database)) {
      assertEquals(expected, cellarDump(cellar.table("written"), Integer.MAX_VALUE));
    }
  }

  @Test
  void roundTripsBothWaysKeepTags() throws Exception {
    Path source = root.resolve("tagged/f/0001");
    Files.createDirectories(source.getParent());
    try (HFileWriter writer =
        HFileWriter.create(source, HFileContext.builder().includesTags(true).build())) {
      for (int i = 0; i < 500; i++) {
        byte[] row = bytes("row-%04d".formatted(i));
        writer.append(
            KeyValue.create(
                row,
                bytes("f"),
                bytes("q"),
                5_000 + i,
                CellType.PUT,
                bytes("value " + i),
                List.of(new Tag((byte) 7, row), new Tag((byte) 9, bytes("t" + i)))));
      }
    }
    Path out = root.resolve("tagged-export");
    List<String> expected;
    try (Cellar cellar = openCellar(root.resolve("cellar-tagged"))) {
      BulkLoad.load(cellar, "tagged", source.getParent().getParent(), false, line -> {});
      expected = cellarDump(cellar.table("tagged"), Integer.MAX_VALUE);
      TableExport.export(cellar, "tagged", out, List.of(), line -> {});
    }
    assertTrue(
        expected.getFirst().endsWith(" tags \\x00\\x09\\x07row-0000\\x00\\x03\\x09t0"),
        expected::getFirst);

    TableName name = TableName.valueOf("tagged");
    assertFalse(
        BulkLoadHFiles.create(hbase.conf())
            .bulkLoad(name, new org.apache.hadoop.fs.Path(out.toUri()))
            .isEmpty());
    try (Admin admin = hbase.connection().getAdmin()) {
      admin.majorCompact(name);
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (hbase.storeFiles(name, "f").stream()
              .anyMatch(f -> f.getPath().getName().contains("_SeqId_"))
          || admin.getCompactionState(name) != CompactionState.NONE) {
        assertTrue(System.nanoTime() < deadline, "HBase's major compaction did not finish");
        Thread.sleep(200);
      }
    }
    assertEquals(
        expected.stream().map(line -> line.substring(0, line.indexOf(" tags "))).toList(),
        hbaseDump(hbase.connection(), name));

    Path back = root.resolve("cellar-back");
    Path again = root.resolve("tagged-export-again");
    try (Cellar cellar = openCellar(back)) {
      BulkLoad.load(cellar, "tagged", regionDirectory(name), false, line -> {});
      assertEquals(expected, cellarDump(cellar.table("tagged"), Integer.MAX_VALUE));
      TableExport.export(cellar, "tagged", again, List.of(), line -> {});
    }

    TableName reloaded = TableName.valueOf("tagged-again");
    assertFalse(
        BulkLoadHFiles.create(hbase.conf())
            .bulkLoad(reloaded, new org.apache.hadoop.fs.Path(again.toUri()))
            .isEmpty());
    List<CellSpec> stored = new ArrayList<>();
    HBaseHFiles reader = new HBaseHFiles();
    for (FileStatus file : hbase.storeFiles(reloaded, "f")) {
      stored.addAll(reader.read(Path.of(file.getPath().toUri())));
    }
    assertEquals(expected, hbaseFileDump(stored), "HBase's store files, tags included");
  }
}
