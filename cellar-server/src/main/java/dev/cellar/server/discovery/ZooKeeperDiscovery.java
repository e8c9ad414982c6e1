package dev.cellar.server.discovery;

import dev.cellar.server.ZooKeeperOptions;
import dev.cellar.server.catalog.ServerIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The server's ZooKeeper discovery as its options ask: nothing, a {@link ZooKeeperPublisher} to the
 * configured quorum, or an {@link EmbeddedZooKeeper} and a publisher to it. Closing withdraws the
 * server's ephemeral nodes first, then stops the embedded server.
 */
public final class ZooKeeperDiscovery implements AutoCloseable {

  private final ZooKeeperPublisher publisher;
  private final EmbeddedZooKeeper embedded;

  private ZooKeeperDiscovery(ZooKeeperPublisher publisher, EmbeddedZooKeeper embedded) {
    this.publisher = publisher;
    this.embedded = embedded;
  }

  /**
   * Publishes {@code identity} as {@code options} say, if they say to.
   *
   * @param bindAddress where an embedded ZooKeeper listens (the RPC bind address)
   * @param defaultDataDir an embedded ZooKeeper's data when {@link ZooKeeperOptions#DATA_DIR} names
   *     none; empty when the database is not on a local disk
   * @throws IOException naming ZooKeeper's address when it cannot be reached or started
   */
  public static Optional<ZooKeeperDiscovery> start(
      ZooKeeperOptions options,
      String bindAddress,
      Optional<Path> defaultDataDir,
      ServerIdentity identity,
      int infoPort)
      throws IOException {
    if (!options.publishes()) {
      return Optional.empty();
    }
    EmbeddedZooKeeper embedded = null;
    String connectString = String.join(",", options.quorum());
    if (options.embedded()) {
      Path dataDir =
          options.embeddedDataDir() != null
              ? Path.of(options.embeddedDataDir())
              : defaultDataDir.orElseThrow(
                  () ->
                      new IOException(
                          "an embedded ZooKeeper needs a local directory: set "
                              + ZooKeeperOptions.DATA_DIR
                              + " (the database is not on a local disk)"));
      embedded = EmbeddedZooKeeper.start(bindAddress, options.clientPort(), dataDir);
      connectString = embedded.connectString();
    }
    try {
      ZooKeeperPublisher publisher =
          ZooKeeperPublisher.start(
              connectString,
              options.parent(),
              options.sessionTimeoutMillis(),
              options.connectTimeoutMillis(),
              identity,
              infoPort);
      return Optional.of(new ZooKeeperDiscovery(publisher, embedded));
    } catch (IOException | RuntimeException e) {
      if (embedded != null) {
        embedded.close();
      }
      throw e;
    }
  }

  /** The quorum the server is published in, {@code host:port,...}. */
  public String connectString() {
    return publisher.connectString();
  }

  @Override
  public void close() {
    try {
      publisher.close();
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }
}
