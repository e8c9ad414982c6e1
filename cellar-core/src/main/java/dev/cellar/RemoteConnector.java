package dev.cellar;

/**
 * SPI behind {@link Cellar#connect}: opens a client of a server. The {@code cellar-client} module
 * provides the implementation (through {@link java.util.ServiceLoader}), so that the embedded
 * database carries no network code and a program gains the client by adding the module.
 */
public interface RemoteConnector {

  /** A client of the server at {@code hostAndPort} ({@code host:port}). */
  Database connect(String hostAndPort);
}
