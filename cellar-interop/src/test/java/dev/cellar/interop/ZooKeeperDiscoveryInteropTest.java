package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cellar.CellarConfig;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import dev.cellar.server.ZooKeeperOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's own client (2.6.1) on HBase's default configuration, ZooKeeper discovery
 * (ZKConnectionRegistry), finds {@code cellar serve} through the ZooKeeper the server runs in
 * process: the client is told the quorum and its port, nothing else. It creates a table, writes,
 * reads and scans; after the server restarts on the same directory and another RPC port, a new
 * client finds it again (same cluster id) and reads what was written, and so does the client that
 * knew the old address, once its calls there fail.
 */
class ZooKeeperDiscoveryInteropTest {

  private static final TableName TABLE = TableName.valueOf("zk");
  private static final byte[] F = bytes("f");
  private static final byte[] Q = bytes("q");

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CellarServer serve(Path data, int zooKeeperPort) throws IOException {
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with(ServerOptions.HANDLERS, "4")
            .with(ZooKeeperOptions.EMBEDDED, "true")
            .with(ZooKeeperOptions.CLIENT_PORT, String.valueOf(zooKeeperPort));
    return CellarServer.start(ServerOptions.from(data, config), config);
  }

  /** All an application on HBase's defaults sets: where ZooKeeper is. */
  private static Connection connect(int zooKeeperPort) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zooKeeperPort);
    return ConnectionFactory.createConnection(conf);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void theDefaultClientFindsTheServerThroughZooKeeperAndAgainAfterARestart() throws Exception {
    Path data = dir.resolve("data");
    int zooKeeperPort = freePort();
    String clusterId;
    String firstAddress;
    try (Connection kept = connect(zooKeeperPort)) {
      try (CellarServer server = serve(data, zooKeeperPort);
          Admin admin = kept.getAdmin()) {
        assertEquals("127.0.0.1:" + zooKeeperPort, server.zooKeeperQuorum().orElseThrow());
        clusterId = server.clusterId();
        firstAddress = server.hostAndPort();
        assertEquals(clusterId, kept.getClusterId());
        admin.createTable(
            TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                .build());
        try (Table table = kept.getTable(TABLE)) {
          for (int i = 0; i < 10; i++) {
            table.put(new Put(bytes("row" + i)).addColumn(F, Q, bytes("v" + i)));
          }
          assertArrayEquals(bytes("v3"), table.get(new Get(bytes("row3"))).getValue(F, Q));
          assertEquals(rows(0, 10), scan(table));
        }
        assertEquals(
            server.hostAndPort(),
            admin.getClusterMetrics().getMasterName().getAddress().toString());
      }

      // Restarted on another RPC port (and start code): found again through ZooKeeper, both by a
      // new client and by the one that knew the old address.
      try (CellarServer server = serve(data, zooKeeperPort);
          Connection fresh = connect(zooKeeperPort);
          Table table = fresh.getTable(TABLE);
          Table keptTable = kept.getTable(TABLE)) {
        assertNotEquals(firstAddress, server.hostAndPort());
        assertEquals(clusterId, fresh.getClusterId());
        assertArrayEquals(bytes("v7"), table.get(new Get(bytes("row7"))).getValue(F, Q));
        table.put(new Put(bytes("row10")).addColumn(F, Q, bytes("v10")));
        assertEquals(rows(0, 11), scan(table));
        assertArrayEquals(bytes("v10"), keptTable.get(new Get(bytes("row10"))).getValue(F, Q));
        assertEquals(rows(0, 11), scan(keptTable));
      }
    }
  }

  private static List<String> rows(int from, int to) {
    List<String> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rows.add("row" + i);
    }
    rows.sort(null);
    return rows;
  }

  private static List<String> scan(Table table) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(new Scan())) {
      for (Result result : scanner) {
        rows.add(new String(result.getRow(), StandardCharsets.UTF_8));
      }
    }
    return rows;
  }
}
