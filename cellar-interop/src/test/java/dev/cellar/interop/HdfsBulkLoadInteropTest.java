package dev.cellar.interop;

import static dev.cellar.interop.BulkLoadTables.FAMILIES;
import static dev.cellar.interop.BulkLoadTables.cellarDump;
import static dev.cellar.interop.BulkLoadTables.cellarTable;
import static dev.cellar.interop.BulkLoadTables.hbaseDump;
import static dev.cellar.interop.BulkLoadTables.hbaseTable;
import static dev.cellar.interop.BulkLoadTables.operations;
import static dev.cellar.interop.BulkLoadTables.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.cli.CellarCommand;
import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table moved to HBase without a copy: HBase 2.6.1 ({@link HBaseCluster}) with its root directory
 * on an HDFS (a MiniDFSCluster on loopback, {@link MiniHdfs}) and a Cellar database on the same
 * HDFS, both in this JVM. {@code cellar export} writes the table into an {@code hdfs://} directory,
 * HBase's {@code BulkLoadHFilesTool} loads it from there, and HBase moves each exported file into
 * its region (the same HDFS file, by its inode id, and none left in the export) instead of copying
 * it; HBase's client then reads every cell Cellar's scan read. The seed is printed with a failure;
 * {@code -Dcellar.test.seed} repeats it.
 */
@ExtendWith(TestSeedExtension.class)
class HdfsBulkLoadInteropTest {

  /** What HBase, Cellar and the command set as the HDFS's clients: one DataNode to write to. */
  private static final Map<String, String> CLIENT =
      Map.of(
          "dfs.replication",
          "1",
          "dfs.client.block.write.locateFollowingBlock.initial.delay.ms",
          "10");

  @TempDir static Path root;
  private static MiniHdfs hdfs;
  private static HBaseCluster hbase;

  @BeforeAll
  static void start() throws Exception {
    hdfs = MiniHdfs.start(1);
    Map<String, String> settings = new TreeMap<>(CLIENT);
    settings.put("fs.defaultFS", hdfs.root().toString());
    // On HDFS, HBase's HFileSystem reorders the block locations of logs it reads back by
    // replacing a final field of Hadoop's DFSClient through Class.getDeclaredFields0, which JDK
    // 25 refuses (java.lang is not open to it); one DataNode leaves nothing to reorder.
    settings.put("hbase.filesystem.reorder.blocks", "false");
    hbase = HBaseCluster.start(root.resolve("cluster"), URI.create(hdfs.uri("/hbase")), settings);
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      if (hbase != null) {
        hbase.close();
      }
    } finally {
      if (hdfs != null) {
        hdfs.close();
      }
    }
  }

  private static CellarConfig cellarConfig() {
    CellarConfig config = CellarConfig.defaults().with("hfile.block.cache.memory.size", "8m");
    for (Map.Entry<String, String> setting : CLIENT.entrySet()) {
      config = config.with(setting.getKey(), setting.getValue());
    }
    return config;
  }

  /** The HDFS inode ids of {@code files}: a rename keeps a file's, a copy makes a new one. */
  private static Set<Long> fileIds(FileSystem fs, List<FileStatus> files) throws IOException {
    Set<Long> ids = new TreeSet<>();
    for (FileStatus file : files) {
      ids.add(((HdfsFileStatus) fs.getFileStatus(file.getPath())).getFileId());
    }
    return ids;
  }

  /** The files (not directories) in {@code directory}. */
  private static List<FileStatus> files(FileSystem fs, org.apache.hadoop.fs.Path directory)
      throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus status : fs.listStatus(directory)) {
      if (status.isFile()) {
        files.add(status);
      }
    }
    return files;
  }

  @Test
  void hbasesBulkLoadToolMovesAnExportOnTheSameHdfs(TestSeed seed) throws Exception {
    String database = hdfs.uri("/cellar/db");
    String out = hdfs.uri("/bulk/t");
    List<String> expected;
    try (Cellar cellar = Cellar.open(database, cellarConfig())) {
      cellar.admin().createTable(cellarTable("t"));
      write(cellar, "t", operations(seed.value(), 6000));
      expected = cellarDump(cellar.table("t"), Integer.MAX_VALUE);
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                "export",
                "--dir",
                database,
                "--table",
                "t",
                "--out",
                out,
                "--split-keys",
                "row-0400,row-0800"));
    CLIENT.forEach((key, value) -> command.add("-D" + key + "=" + value));
    assertEquals(0, CellarCommand.commandLine().execute(command.toArray(String[]::new)));

    FileSystem fs = FileSystem.get(URI.create(out), hbase.conf());
    Map<String, Set<Long>> exported = new TreeMap<>();
    for (String family : FAMILIES) {
      List<FileStatus> files = files(fs, new org.apache.hadoop.fs.Path(out, family));
      assertEquals(3, files.size(), "family " + family + ": one file per region");
      exported.put(family, fileIds(fs, files));
    }

    TableName name = TableName.valueOf("t");
    try (Admin admin = hbase.connection().getAdmin()) {
      admin.createTable(hbaseTable(name), BulkLoadTables.SPLITS);
    }
    assertFalse(
        BulkLoadHFiles.create(hbase.conf())
            .bulkLoad(name, new org.apache.hadoop.fs.Path(out))
            .isEmpty(),
        "HBase's tool loaded nothing");

    for (String family : FAMILIES) {
      assertTrue(
          files(fs, new org.apache.hadoop.fs.Path(out, family)).isEmpty(),
          "family " + family + ": HBase moved the exported files out of the export");
      assertEquals(
          exported.get(family),
          fileIds(fs, hbase.storeFiles(name, family)),
          "family " + family + ": HBase's store files are the exported files, not copies");
    }
    assertEquals(expected, hbaseDump(hbase.connection(), name));
  }
}
