package dev.cellar.interop;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * A running Apache HBase 2.6.1 in this JVM, as {@code bin/start-hbase.sh} runs it standalone: an
 * in-process ZooKeeper, then one HMaster and one region server ({@link LocalHBaseCluster}) with
 * their root directory on the local file system, or on an HDFS, and their info servers off. It
 * starts in about 15 seconds; a test class shares one. {@link #close()} stops both.
 */
final class HBaseCluster implements AutoCloseable {

  private final org.apache.hadoop.fs.Path rootDir;
  private final Configuration conf;
  private final MiniZooKeeperCluster zooKeeper;
  private final LocalHBaseCluster hbase;
  private final Connection connection;

  private HBaseCluster(
      org.apache.hadoop.fs.Path rootDir,
      Configuration conf,
      MiniZooKeeperCluster zooKeeper,
      LocalHBaseCluster hbase,
      Connection connection) {
    this.rootDir = rootDir;
    this.conf = conf;
    this.zooKeeper = zooKeeper;
    this.hbase = hbase;
    this.connection = connection;
  }

  /** Starts ZooKeeper and HBase under {@code root}, and connects a client. */
  static HBaseCluster start(Path root) throws IOException, InterruptedException {
    return start(root, root.resolve("hbase").toUri(), Map.of());
  }

  /**
   * Starts ZooKeeper under {@code root} and HBase with its root directory at {@code rootDir} (a
   * {@code file:} or {@code hdfs:} URI) and the file system client {@code settings}, and connects a
   * client.
   */
  static HBaseCluster start(Path root, URI rootDir, Map<String, String> settings)
      throws IOException, InterruptedException {
    Configuration conf = HBaseConfiguration.create();
    settings.forEach(conf::set);
    MiniZooKeeperCluster zooKeeper = new MiniZooKeeperCluster(conf);
    int port = zooKeeper.startup(root.resolve("zookeeper").toFile());
    LocalHBaseCluster hbase = null;
    try {
      conf.set("hbase.zookeeper.quorum", "127.0.0.1");
      conf.set("hbase.master.ipc.address", "127.0.0.1");
      conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
      conf.setInt("hbase.zookeeper.property.clientPort", port);
      conf.set("hbase.rootdir", rootDir.toString());
      conf.set("hbase.cluster.distributed", "false");
      conf.setInt("hbase.master.info.port", -1);
      conf.setInt("hbase.regionserver.info.port", -1);
      conf.setInt("hbase.master.port", 0);
      conf.setInt("hbase.regionserver.port", 0);
      if ("file".equals(rootDir.getScheme())) {
        // the local file system cannot hflush/hsync as HDFS does (standalone HBase sets this too)
        conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
      }
      conf.setFloat("hfile.block.cache.size", 0.1f);
      // files a compaction replaced leave the store directory within a second, not two minutes
      conf.setInt("hbase.hfile.compaction.discharger.interval", 1000);
      hbase = new LocalHBaseCluster(conf, 1, 1);
      hbase.startup();
      Connection connection = ConnectionFactory.createConnection(conf);
      return new HBaseCluster(
          new org.apache.hadoop.fs.Path(rootDir), conf, zooKeeper, hbase, connection);
    } catch (IOException | RuntimeException e) {
      if (hbase != null) {
        hbase.shutdown();
      }
      zooKeeper.shutdown();
      throw e;
    }
  }

  Configuration conf() {
    return conf;
  }

  Connection connection() {
    return connection;
  }

  /** The directories of the table's regions, under HBase's root directory. */
  List<org.apache.hadoop.fs.Path> regionDirectories(TableName table) throws IOException {
    org.apache.hadoop.fs.Path tableDirectory =
        new org.apache.hadoop.fs.Path(
            rootDir, "data/" + table.getNamespaceAsString() + "/" + table.getQualifierAsString());
    FileSystem fs = tableDirectory.getFileSystem(conf);
    return Arrays.stream(fs.listStatus(tableDirectory))
        .filter(FileStatus::isDirectory)
        .map(FileStatus::getPath)
        .filter(path -> !path.getName().startsWith("."))
        .sorted()
        .toList();
  }

  /** The store files of the table's family, in every region. */
  List<FileStatus> storeFiles(TableName table, String family) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (org.apache.hadoop.fs.Path region : regionDirectories(table)) {
      org.apache.hadoop.fs.Path familyDirectory = new org.apache.hadoop.fs.Path(region, family);
      FileSystem fs = familyDirectory.getFileSystem(conf);
      if (fs.exists(familyDirectory) && fs.getFileStatus(familyDirectory).isDirectory()) {
        Arrays.stream(fs.listStatus(familyDirectory))
            .filter(FileStatus::isFile)
            .filter(status -> !status.getPath().getName().startsWith("."))
            .forEach(files::add);
      }
    }
    return files;
  }

  @Override
  public void close() throws IOException {
    try {
      connection.close();
    } finally {
      hbase.shutdown();
      hbase.join();
      zooKeeper.shutdown();
    }
  }
}
