package dev.cellar.client;

import dev.cellar.CellarConfig;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An in-process {@code cellar serve} on a free loopback port and a {@link CellarClient} connected
 * to it, closed together (client first). Small retry pauses keep a failing test short.
 */
final class ServedDatabase implements AutoCloseable {

  final CellarServer server;
  final CellarClient client;

  private ServedDatabase(CellarServer server, CellarClient client) {
    this.server = server;
    this.client = client;
  }

  static ServedDatabase start(Path directory, CellarConfig config) throws IOException {
    return start(
        directory,
        config,
        ClientSettings.defaults().withRetries(3, 10).withRpcTimeoutMillis(20_000));
  }

  static ServedDatabase start(Path directory, CellarConfig config, ClientSettings settings)
      throws IOException {
    CellarConfig served = config.with(ServerOptions.PORT, "0").with(ServerOptions.HANDLERS, "4");
    CellarServer server = CellarServer.start(ServerOptions.from(directory, served), served);
    return new ServedDatabase(server, CellarClient.connect(server.hostAndPort(), settings));
  }

  @Override
  public void close() throws IOException {
    try {
      client.close();
    } finally {
      server.close();
    }
  }
}
