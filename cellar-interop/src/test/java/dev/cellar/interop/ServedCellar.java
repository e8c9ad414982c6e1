package dev.cellar.interop;

import dev.cellar.CellarConfig;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * An in-process {@code cellar serve} on a free loopback port and a connection of HBase's own client
 * to it, configured as an HBase user would: the RPC connection registry pointed at the server,
 * nothing else. Small retry counts and pauses keep a failing test short.
 */
final class ServedCellar implements AutoCloseable {

  final CellarServer server;
  final Connection connection;

  private ServedCellar(CellarServer server, Connection connection) {
    this.server = server;
    this.connection = connection;
  }

  static ServedCellar start(Path directory) throws IOException {
    return start(directory, Map.of(), Map.of());
  }

  /**
   * A server with {@code serverSettings} over the defaults, and a client with {@code
   * clientSettings} over {@link #clientConfiguration}.
   */
  static ServedCellar start(
      Path directory, Map<String, String> serverSettings, Map<String, String> clientSettings)
      throws IOException {
    CellarConfig config =
        CellarConfig.defaults().with(ServerOptions.PORT, "0").with(ServerOptions.HANDLERS, "4");
    for (Map.Entry<String, String> setting : serverSettings.entrySet()) {
      config = config.with(setting.getKey(), setting.getValue());
    }
    CellarServer server = CellarServer.start(ServerOptions.from(directory, config), config);
    try {
      Configuration conf = clientConfiguration(server);
      clientSettings.forEach(conf::set);
      return new ServedCellar(server, ConnectionFactory.createConnection(conf));
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** What an HBase user sets to reach {@code server}. */
  static Configuration clientConfiguration(CellarServer server) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", server.hostAndPort());
    conf.setInt("hbase.client.retries.number", 3);
    conf.setInt("hbase.client.pause", 20);
    conf.setInt("hbase.rpc.timeout", 20_000);
    return conf;
  }

  @Override
  public void close() throws IOException {
    try {
      connection.close();
    } finally {
      server.close();
    }
  }
}
