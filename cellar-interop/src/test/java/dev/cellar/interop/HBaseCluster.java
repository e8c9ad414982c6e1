package dev.cellar.interop;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * A running Apache HBase 2.6.1 in this JVM, as {@code bin/start-hbase.sh} runs it standalone: an
 * in-process ZooKeeper, then one HMaster and one region server ({@link LocalHBaseCluster}) with
 * their root directory on the local file system and their info servers off. It starts in about
 * 15 seconds; a test class shares one. {@link #close()} stops both.
 */
final class HBaseCluster implements AutoCloseable {

  private final Path root;
  private final Configuration conf;
  private final MiniZooKeeperCluster zooKeeper;
  private final LocalHBaseCluster hbase;
  private final Connection connection;

  private HBaseCluster(Path root, Configuration conf, MiniZooKeeperCluster zooKeeper,
      LocalHBaseCluster hbase, Connection connection) {
    this.root = root;
    this.conf = conf;
    this.zooKeeper = zooKeeper;
    this.hbase = hbase;
    this.connection = connection;
  }

  /** Starts ZooKeeper and HBase under {@code root}, and connects a client. */
  static HBaseCluster start(Path root) throws IOException, InterruptedException {
    Configuration conf = HBaseConfiguration.create();
    MiniZooKeeperCluster zooKeeper = new MiniZooKeeperCluster(conf);
    int port = zooKeeper.startup(root.resolve("zookeeper").toFile());
    LocalHBaseCluster hbase = null;
    try {
      conf.set("hbase.zookeeper.quorum", "localhost");
      conf.setInt("hbase.zookeeper.property.clientPort", port);
      conf.set("hbase.rootdir", root.resolve("hbase").toUri().toString());
      conf.set("hbase.cluster.distributed", "false");
      conf.setInt("hbase.master.info.port", -1);
      conf.setInt("hbase.regionserver.info.port", -1);
      conf.setInt("hbase.master.port", 0);
      conf.setInt("hbase.regionserver.port", 0);
      // the local file system cannot hflush/hsync as HDFS does (standalone HBase sets this too)
      conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
      conf.setFloat("hfile.block.cache.size", 0.1f);
      // files a compaction replaced leave the store directory within a second, not two minutes
      conf.setInt("hbase.hfile.compaction.discharger.interval", 1000);
      hbase = new LocalHBaseCluster(conf, 1, 1);
      hbase.startup();
      Connection connection = ConnectionFactory.createConnection(conf);
      return new HBaseCluster(root, conf, zooKeeper, hbase, connection);
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
  List<Path> regionDirectories(TableName table) throws IOException {
    Path tableDirectory = root.resolve("hbase").resolve("data")
        .resolve(table.getNamespaceAsString()).resolve(table.getQualifierAsString());
    try (Stream<Path> regions = Files.list(tableDirectory)) {
      return regions.filter(Files::isDirectory)
          .filter(path -> !path.getFileName().toString().startsWith(".")).sorted().toList();
    }
  }

  /** The store files of the table's family, in every region. */
  List<File> storeFiles(TableName table, String family) throws IOException {
    List<File> files = new ArrayList<>();
    for (Path region : regionDirectories(table)) {
      Path familyDirectory = region.resolve(family);
      if (Files.isDirectory(familyDirectory)) {
        try (Stream<Path> list = Files.list(familyDirectory)) {
          list.filter(Files::isRegularFile)
              .filter(path -> !path.getFileName().toString().startsWith("."))
              .forEach(path -> files.add(path.toFile()));
        }
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
