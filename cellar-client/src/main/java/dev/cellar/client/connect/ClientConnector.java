package dev.cellar.client.connect;

import dev.cellar.Database;
import dev.cellar.client.CellarClient;
import dev.cellar.spi.RemoteConnector;

/**
 * The {@link RemoteConnector} of {@code Cellar.connect}: a {@link CellarClient}. In a package of
 * its own, not exported, because the service interface is shown to Cellar's modules only.
 */
public final class ClientConnector implements RemoteConnector<Database> {

  /** For the service loader. */
  public ClientConnector() {}

  @Override
  public Database connect(String hostAndPort) {
    return CellarClient.connect(hostAndPort);
  }
}
