package dev.cellar.hdfs;

import dev.cellar.CellarConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * An in-process HDFS (one NameNode, {@code dataNodes} DataNodes, every address on loopback) for a
 * test class: starting one costs seconds, so a class shares one and gives each test its own
 * directory ({@link #newDirectory}).
 */
public final class MiniHdfs implements AutoCloseable {

  private static final AtomicInteger DIRECTORIES = new AtomicInteger();

  private final Path base;
  private final MiniDFSCluster cluster;
  private final int dataNodes;

  private MiniHdfs(Path base, MiniDFSCluster cluster, int dataNodes) {
    this.dataNodes = Math.min(dataNodes, 3);
    this.base = base;
    this.cluster = cluster;
  }

  public static MiniHdfs start(int dataNodes) throws IOException {
    Path base = Files.createTempDirectory("cellar-minidfs");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.setInt("dfs.replication", Math.min(dataNodes, 3));
    conf.setLong("dfs.blocksize", 1024 * 1024);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 2000);
    // Tests need no NameNode edit log on disk: forcing it after every namespace change would
    // make each create, rename and delete wait for a disk flush on a shared machine.
    conf.setBoolean("dfs.namenode.edits.noeditlogchannelflush", true);
    // A lease recovery waits for the DataNode's next heartbeat to fetch its command.
    conf.setLong("dfs.heartbeat.interval", 1);
    // No WebHDFS: its REST resources are found by scanning every class of the minicluster jar,
    // seconds of each start, and no test reaches HDFS through it.
    conf.setBoolean("dfs.webhdfs.enabled", false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base.toFile())
        .numDataNodes(dataNodes)
        .build();
    cluster.waitActive();
    return new MiniHdfs(base, cluster, dataNodes);
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /**
   * What a client of this cluster sets: its replication, at most the DataNodes there are (with
   * fewer, an hflush asks for a replacement DataNode that does not exist and fails), a short
   * pause between checks of a lease recovery, and a short first wait when closing a file finds its
   * last block not yet reported by the DataNode (400 ms by default: most of a test's time).
   */
  public CellarConfig config() {
    return CellarConfig.defaults().with("dfs.replication", Integer.toString(dataNodes))
        .with("hbase.lease.recovery.pause", "100")
        .with("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "10");
  }

  /** {@code hdfs://127.0.0.1:port}. */
  public URI root() {
    return URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort());
  }

  /** A URI for {@code path} (absolute). */
  public String uri(String path) {
    return root() + path;
  }

  /** A URI of a directory no other test of this JVM uses. */
  public String newDirectory(String name) {
    return uri("/cellar-test/" + name + "-" + DIRECTORIES.incrementAndGet());
  }

  @Override
  public void close() throws IOException {
    cluster.shutdown(true);
    if (!Files.exists(base)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(base)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
