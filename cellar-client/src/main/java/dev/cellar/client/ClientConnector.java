package dev.cellar.client;

import dev.cellar.Database;
import dev.cellar.RemoteConnector;

/** The {@link RemoteConnector} of {@code Cellar.connect}: a {@link CellarClient}. */
public final class ClientConnector implements RemoteConnector {

  /** For the service loader. */
  public ClientConnector() {}

  @Override
  public Database connect(String hostAndPort) {
    return CellarClient.connect(hostAndPort);
  }
}
