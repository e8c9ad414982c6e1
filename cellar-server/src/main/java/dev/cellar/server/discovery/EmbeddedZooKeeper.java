package dev.cellar.server.discovery;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * Apache ZooKeeper's own standalone server, in process, for a one-machine setup ({@code cellar
 * serve --zookeeper}): one data directory for its snapshots and transaction log, so what the server
 * publishes persists across restarts as it would on a real quorum; connections over ZooKeeper's NIO
 * connection factory (its threads: the acceptor, selectors, workers, the session tracker and the
 * request processors). {@link #close()} stops accepting, closes the sessions and shuts the server
 * down.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

  private static final int TICK_MILLIS = 2_000;
  private static final int MAX_CONNECTIONS_PER_HOST = 60;

  private final String host;
  private final ServerCnxnFactory connections;
  private final ZooKeeperServer server;

  private EmbeddedZooKeeper(String host, ServerCnxnFactory connections, ZooKeeperServer server) {
    this.host = host;
    this.connections = connections;
    this.server = server;
  }

  /**
   * Starts a server on {@code host}:{@code port} (0: any free port) keeping its data in {@code
   * dataDir}, made if missing.
   *
   * @throws IOException naming the address or the directory when either is unusable
   */
  static EmbeddedZooKeeper start(String host, int port, Path dataDir) throws IOException {
    Files.createDirectories(dataDir);
    ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MILLIS);
    ServerCnxnFactory connections;
    try {
      connections =
          ServerCnxnFactory.createFactory(
              new InetSocketAddress(host, port), MAX_CONNECTIONS_PER_HOST);
    } catch (IOException e) {
      server.shutdown();
      throw new IOException(
          "cannot start ZooKeeper on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    try {
      connections.startup(server);
    } catch (IOException | RuntimeException e) {
      connections.shutdown();
      throw new IOException(
          "cannot start ZooKeeper with data in " + dataDir + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      connections.shutdown();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted starting ZooKeeper", e);
    }
    String reachable = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return new EmbeddedZooKeeper(reachable, connections, server);
  }

  /** The {@code host:port} clients on this machine connect to. */
  String connectString() {
    return host + ":" + connections.getLocalPort();
  }

  @Override
  public void close() {
    connections.shutdown();
    server.shutdown();
  }
}
