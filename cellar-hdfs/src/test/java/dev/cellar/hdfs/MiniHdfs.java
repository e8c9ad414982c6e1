package dev.cellar.hdfs;

import dev.cellar.CellarConfig;
import dev.cellar.io.StorageLocation;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An in-process HDFS (one NameNode, {@code dataNodes} DataNodes, every address on loopback) for a
 * test class: starting one costs seconds, so a class shares one and gives each test its own
 * directory ({@link #newDirectory}).
 *
 * <p>A test class registers it as an extension, which starts the cluster before the class's
 * {@code @BeforeAll} methods and stops it after its {@code @AfterAll} methods:
 *
 * <pre>{@code @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);}</pre>
 *
 * Nested classes share their outer class's cluster. Storages a class opens on the cluster with
 * {@link #location} are closed before it stops. {@link #start} starts one outside JUnit ({@link
 * MiniHdfsMain}).
 */
public final class MiniHdfs implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

  private static final AtomicInteger DIRECTORIES = new AtomicInteger();

  private final int dataNodes;
  private final List<StorageLocation> locations = new ArrayList<>();
  private Path base;
  private MiniDFSCluster cluster;

  /** The JUnit container that started the cluster, and stops it. */
  private String owner;

  private MiniHdfs(int dataNodes) {
    this.dataNodes = dataNodes;
  }

  /** A cluster of {@code dataNodes} DataNodes, started when its test class starts. */
  public static MiniHdfs withDataNodes(int dataNodes) {
    return new MiniHdfs(dataNodes);
  }

  /** A cluster of {@code dataNodes} DataNodes, started now; {@link #close()} stops it. */
  public static MiniHdfs start(int dataNodes) throws IOException {
    MiniHdfs hdfs = new MiniHdfs(dataNodes);
    hdfs.startCluster();
    return hdfs;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    if (cluster == null) {
      owner = context.getUniqueId();
      startCluster();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    if (context.getUniqueId().equals(owner)) {
      close();
    }
  }

  private void startCluster() throws IOException {
    base = Files.createTempDirectory("cellar-minidfs");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.setInt("dfs.replication", replication());
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
    cluster = new MiniDFSCluster.Builder(conf, base.toFile()).numDataNodes(dataNodes).build();
    cluster.waitActive();
  }

  private int replication() {
    return Math.min(dataNodes, 3);
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /**
   * What a client of this cluster sets: its replication, at most the DataNodes there are (with
   * fewer, a pipeline that loses a DataNode asks for a replacement that does not exist and fails),
   * a short pause between checks of a lease recovery, and a short first wait when closing a file
   * finds its last block not yet reported by the DataNode (400 ms by default: most of a test's
   * time).
   */
  public CellarConfig config() {
    return CellarConfig.defaults()
        .with("dfs.replication", Integer.toString(replication()))
        .with("hbase.lease.recovery.pause", "100")
        .with("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "10");
  }

  /** {@link #config()} as {@code key=value} settings, for a writer in another process. */
  public List<String> settingsArguments() {
    return EngineAccess.settings(config()).asMap().entrySet().stream()
        .map(entry -> entry.getKey() + "=" + entry.getValue())
        .toList();
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

  /**
   * The storage at {@code path} (absolute) with {@code config}'s settings, closed with the cluster.
   */
  public StorageLocation location(String path, CellarConfig config) throws IOException {
    StorageLocation location = StorageLocation.resolve(uri(path), EngineAccess.settings(config));
    locations.add(location);
    return location;
  }

  @Override
  public void close() throws IOException {
    for (StorageLocation location : locations.reversed()) {
      location.close();
    }
    locations.clear();
    cluster.shutdown(true);
    cluster = null;
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
