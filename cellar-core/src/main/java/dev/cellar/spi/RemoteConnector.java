package dev.cellar.spi;

/**
 * SPI behind {@code Cellar.connect}: opens a client of a server. The {@code cellar-client} module
 * provides the implementation (through {@link java.util.ServiceLoader}), so that the embedded
 * database carries no network code and a program gains the client by adding the module. This
 * package sits below {@code dev.cellar}, hence the type parameter for the API's {@code Database}.
 *
 * @param <D> the database a connection is, the API's {@code Database}
 */
public interface RemoteConnector<D extends AutoCloseable> {

  /** A client of the server at {@code hostAndPort} ({@code host:port}). */
  D connect(String hostAndPort);
}
