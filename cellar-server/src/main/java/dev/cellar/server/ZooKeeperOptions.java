package dev.cellar.server;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.ArrayList;
import java.util.List;

/**
 * Where {@code cellar serve} publishes itself for HBase clients on ZooKeeper discovery (HBase's
 * default ZKConnectionRegistry), under HBase's keys where HBase has the setting:
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><th>key</th><th>default</th><th>what</th></tr>
 *   <tr><td>hbase.zookeeper.quorum</td><td>none (no publishing)</td><td>ZooKeeper hosts,
 *       comma-separated, each {@code host} or {@code host:port}</td></tr>
 *   <tr><td>hbase.zookeeper.property.clientPort</td><td>2181</td><td>the port of a quorum host
 *       that names none; the embedded server's port (0: any free port)</td></tr>
 *   <tr><td>zookeeper.znode.parent</td><td>/hbase</td><td>the znode the cluster's nodes sit
 *       under</td></tr>
 *   <tr><td>zookeeper.session.timeout</td><td>90000</td><td>ZooKeeper session timeout (ms); the
 *       server's ephemeral nodes outlive a crash by this long</td></tr>
 *   <tr><td>cellar.server.zookeeper.connect.timeout</td><td>30000</td><td>how long (ms) start
 *       waits for a ZooKeeper session before it fails</td></tr>
 *   <tr><td>cellar.server.zookeeper.embedded</td><td>false</td><td>true ({@code cellar serve
 *       --zookeeper}): run a ZooKeeper server in process, on the RPC bind address, and publish to
 *       it; the quorum key is then ignored</td></tr>
 *   <tr><td>hbase.zookeeper.property.dataDir</td><td>{@code server/zookeeper} in the database
 *       directory</td><td>the embedded server's data (a local directory; required when the
 *       database is not on a local disk)</td></tr>
 * </table>
 *
 * @param quorum the quorum's {@code host:port}s, empty when not publishing (nor embedded)
 */
public record ZooKeeperOptions(
    List<String> quorum,
    int clientPort,
    String parent,
    int sessionTimeoutMillis,
    int connectTimeoutMillis,
    boolean embedded,
    String embeddedDataDir) {

  public static final String QUORUM = "hbase.zookeeper.quorum";
  public static final String CLIENT_PORT = "hbase.zookeeper.property.clientPort";
  public static final String PARENT = "zookeeper.znode.parent";
  public static final String SESSION_TIMEOUT = "zookeeper.session.timeout";
  public static final String CONNECT_TIMEOUT = "cellar.server.zookeeper.connect.timeout";
  public static final String EMBEDDED = "cellar.server.zookeeper.embedded";
  public static final String DATA_DIR = "hbase.zookeeper.property.dataDir";
  public static final int DEFAULT_CLIENT_PORT = 2181;

  public ZooKeeperOptions {
    quorum = List.copyOf(quorum);
  }

  /** The options {@code settings} set, validated. */
  static ZooKeeperOptions from(Settings settings) {
    int clientPort = settings.getInt(CLIENT_PORT, DEFAULT_CLIENT_PORT);
    check(clientPort >= 0 && clientPort <= 65535, CLIENT_PORT, clientPort, "a port, 0 to 65535");
    String parent = settings.getString(PARENT, "/hbase");
    check(
        parent.length() > 1 && parent.startsWith("/") && !parent.endsWith("/"),
        PARENT,
        parent,
        "an absolute znode path such as /hbase");
    int session = settings.getInt(SESSION_TIMEOUT, 90_000);
    check(session >= 1, SESSION_TIMEOUT, session, ">= 1 ms");
    int connect = settings.getInt(CONNECT_TIMEOUT, 30_000);
    check(connect >= 1, CONNECT_TIMEOUT, connect, ">= 1 ms");
    boolean embedded = settings.getBoolean(EMBEDDED, false);
    List<String> quorum = new ArrayList<>();
    String hosts = settings.getString(QUORUM, null);
    if (hosts != null && !embedded) {
      for (String host : hosts.split(",")) {
        String trimmed = host.trim();
        check(!trimmed.isEmpty(), QUORUM, hosts, "host[:port] names separated by commas");
        check(clientPort != 0 || trimmed.contains(":"), CLIENT_PORT, 0, "a port from 1");
        quorum.add(trimmed.contains(":") ? trimmed : trimmed + ":" + clientPort);
      }
    }
    return new ZooKeeperOptions(
        quorum, clientPort, parent, session, connect, embedded, settings.getString(DATA_DIR, null));
  }

  /** Whether the server publishes itself in ZooKeeper. */
  public boolean publishes() {
    return embedded || !quorum.isEmpty();
  }

  private static void check(boolean ok, String key, Object value, String expected) {
    if (!ok) {
      throw new InvalidConfigException(key, String.valueOf(value), "must be " + expected);
    }
  }
}
