package dev.cellar.io;

import dev.cellar.config.Settings;
import java.io.IOException;
import java.net.URI;

/**
 * A file system other than the local one, found with {@link java.util.ServiceLoader} by the scheme
 * of a database's URI (module {@code cellar-hdfs} provides {@code hdfs}). Implementations need a
 * public no-argument constructor and a {@code META-INF/services/dev.cellar.io.StorageProvider}
 * entry.
 */
public interface StorageProvider {

  /** Whether this provider serves URIs of {@code scheme} (lower case). */
  boolean serves(String scheme);

  /**
   * Connects to the file system of {@code uri} (its scheme and authority; the path is ignored),
   * configured by {@code settings} (the site file and {@code -D} options: client settings such as
   * {@code dfs.replication} pass through). The caller closes what it returns.
   *
   * @throws IOException naming the URI, if the file system cannot be reached
   */
  OpenedStorage connect(URI uri, Settings settings) throws IOException;

  /** A storage with the connection behind it, which {@link #close()} ends. */
  interface OpenedStorage extends AutoCloseable {

    Storage storage();

    @Override
    void close() throws IOException;
  }
}
