package dev.cellar.io;

import dev.cellar.config.Settings;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Where a database lives, from what a user typed: a local path ({@code /data/db}, {@code db},
 * {@code file:///data/db}) or a URI on another file system ({@code hdfs://host:8020/cellar/db}),
 * resolved to a {@link Storage} and the path of the directory inside it. A URI's storage comes from
 * the {@link StorageProvider} serving its scheme; without one on the class path the error names the
 * module to add. {@link #close()} ends the connection a provider opened (nothing for a local path).
 */
public final class StorageLocation implements AutoCloseable {

  /** What to put on the class path for a URI whose scheme no provider serves. */
  static final String HDFS_MODULE =
      "dev.cellar:cellar-hdfs (with hadoop-client-api and" + " hadoop-client-runtime)";

  private final String text;
  private final URI identity;
  private final Storage storage;
  private final Path directory;
  private final StorageProvider.OpenedStorage opened;

  private StorageLocation(
      String text,
      URI identity,
      Storage storage,
      Path directory,
      StorageProvider.OpenedStorage opened) {
    this.text = text;
    this.identity = identity;
    this.storage = storage;
    this.directory = directory;
    this.opened = opened;
  }

  /** A local directory. */
  public static StorageLocation local(Path directory) {
    URI identity;
    try {
      identity =
          new URI("file", null, directory.toAbsolutePath().normalize().toString(), null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(directory + ": not a usable path: " + e.getMessage(), e);
    }
    return new StorageLocation(directory.toString(), identity, Storage.local(), directory, null);
  }

  /**
   * Resolves {@code location}, connecting to its file system if it is not local.
   *
   * @throws IOException with one line naming the location: an unknown scheme, a missing provider
   *     (and the module to add), or a file system that cannot be reached
   */
  public static StorageLocation resolve(String location, Settings settings) throws IOException {
    String scheme = schemeOf(location);
    if (scheme == null) {
      return local(Path.of(location));
    }
    URI uri;
    try {
      uri = new URI(location);
    } catch (URISyntaxException e) {
      throw new IOException(location + ": not a valid URI: " + e.getMessage(), e);
    }
    if (scheme.equals("file")) {
      return local(Path.of(uri));
    }
    if (uri.getPath() == null || !uri.getPath().startsWith("/")) {
      throw new IOException(
          location
              + ": a database URI needs an absolute path, as in "
              + scheme
              + "://host:port/path");
    }
    StorageProvider provider = providerFor(scheme);
    if (provider == null) {
      throw new IOException(
          location
              + ": no storage for scheme '"
              + scheme
              + "' on the class path; add "
              + HDFS_MODULE);
    }
    Path directory = Path.of(uri.getPath()).normalize();
    URI identity;
    try {
      identity =
          new URI(
              scheme,
              uri.getRawAuthority() == null ? null : uri.getRawAuthority().toLowerCase(Locale.ROOT),
              directory.toString(),
              null,
              null);
    } catch (URISyntaxException e) {
      throw new IOException(location + ": not a valid URI: " + e.getMessage(), e);
    }
    StorageProvider.OpenedStorage opened = provider.connect(uri, settings);
    return new StorageLocation(location, identity, opened.storage(), directory, opened);
  }

  /** Whether {@code location} is a plain local path (no URI scheme, not even {@code file:}). */
  public static boolean isLocalPath(String location) {
    return schemeOf(location) == null;
  }

  /** The URI scheme of {@code location} in lower case, or null for a plain path. */
  static String schemeOf(String location) {
    int colon = location.indexOf(':');
    if (colon < 2) {
      return null;
    }
    for (int i = 0; i < colon; i++) {
      char c = location.charAt(i);
      boolean allowed =
          Character.isLetter(c)
              || (i > 0 && (Character.isDigit(c) || c == '+' || c == '-' || c == '.'));
      if (!allowed || c > 127) {
        return null;
      }
    }
    return location.substring(0, colon).toLowerCase(Locale.ROOT);
  }

  private static StorageProvider providerFor(String scheme) {
    for (StorageProvider provider :
        ServiceLoader.load(StorageProvider.class, StorageLocation.class.getClassLoader())) {
      if (provider.serves(scheme)) {
        return provider;
      }
    }
    return null;
  }

  /** The storage the directory lives on. */
  public Storage storage() {
    return storage;
  }

  /** The directory inside {@link #storage()}. */
  public Path directory() {
    return directory;
  }

  /**
   * Whether {@code other} is this directory or lies below it, on the same file system: compared by
   * scheme, authority and normalized absolute path (a local path as its {@code file:} URI).
   */
  public boolean contains(StorageLocation other) {
    if (!Objects.equals(identity.getScheme(), other.identity.getScheme())
        || !Objects.equals(identity.getAuthority(), other.identity.getAuthority())) {
      return false;
    }
    return Path.of(other.identity.getPath()).startsWith(Path.of(identity.getPath()));
  }

  /** This directory as a qualified URI ({@code file:/...} for a local path). */
  public URI uri() {
    return identity;
  }

  /** Whether this is the local file system. */
  public boolean isLocal() {
    return opened == null;
  }

  @Override
  public void close() throws IOException {
    if (opened != null) {
      opened.close();
    }
  }

  @Override
  public String toString() {
    return text;
  }
}
