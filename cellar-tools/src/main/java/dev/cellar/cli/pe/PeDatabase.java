package dev.cellar.cli.pe;

import dev.cellar.Admin;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Table;
import dev.cellar.io.StorageLocation;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The embedded database a PE run works on: the {@code --dir} directory, or a temporary one that
 * {@link #close()} deletes unless {@code --keep}; opened with the run's configuration. Knows how to
 * create PE's table and whether it holds rows.
 */
final class PeDatabase implements PeTarget {

  private final String directory;
  private final boolean temporary;
  private final boolean keep;
  private final Cellar cellar;
  private final CellarConfig config;

  private PeDatabase(
      String directory, boolean temporary, boolean keep, Cellar cellar, CellarConfig config) {
    this.directory = directory;
    this.temporary = temporary;
    this.keep = keep;
    this.cellar = cellar;
    this.config = config;
  }

  /**
   * Opens {@code location} (a local directory or a URI such as {@code hdfs://host:port/path}), or a
   * new local temporary directory when it is null.
   *
   * @throws PeException naming the directory and the problem when the configuration is refused or
   *     the database cannot be opened (held by another process, an unreachable file system, a
   *     damaged log): one line, as the store's messages name the file and what is wrong
   */
  static PeDatabase open(String location, boolean keep, CellarConfig config) throws IOException {
    boolean temporary = location == null;
    String dir = temporary ? Files.createTempDirectory("cellar-pe-").toString() : location;
    try {
      Cellar cellar = Cellar.open(dir, config);
      cellar
          .infoServerAddress()
          .ifPresent(
              address ->
                  System.err.println(
                      "cellar pe: watch the run at http://"
                          + address.getHostString()
                          + ":"
                          + address.getPort()
                          + "/"));
      return new PeDatabase(dir, temporary, keep, cellar, config);
    } catch (IllegalArgumentException | IOException e) {
      deleteIfTemporary(dir, temporary);
      throw new PeException(cannotOpen(dir, e), e);
    } catch (RuntimeException e) {
      deleteIfTemporary(dir, temporary);
      throw e;
    }
  }

  /** Why {@code dir} did not open, naming it once: most of the store's messages start with it. */
  private static String cannotOpen(String dir, Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.contains(dir) ? message : "cannot open the database in " + dir + ": " + message;
  }

  private static void deleteIfTemporary(String dir, boolean temporary) throws IOException {
    if (temporary) {
      deleteTree(Path.of(dir));
    }
  }

  @Override
  public String describe() {
    return directory;
  }

  String directory() {
    return directory;
  }

  @Override
  public Admin admin() {
    return cellar.admin();
  }

  @Override
  public Table createTableIfMissing(PeOptions options) throws IOException {
    return PeTables.createIfMissing(cellar, options);
  }

  @Override
  public Table existingTable(PeOptions options) throws IOException {
    return PeTables.existing(
        cellar,
        options,
        directory.toString(),
        "run a write command first"
            + " and keep the database, e.g. 'cellar pe --dir DIR --keep --rows "
            + options.rowsPerThread()
            + " sequentialWrite "
            + options.threads()
            + "' then the same"
            + " --dir with this command, or add --load to write the rows in this run");
  }

  @Override
  public CacheFigures cacheFigures() {
    return CacheFigures.of(EngineAccess.engine(cellar).blockCache());
  }

  @Override
  public double heapAllocationRatioSinceLastCall() {
    return EngineAccess.engine(cellar).allocator().heapAllocationRatioSinceLastCall();
  }

  @Override
  public String server() {
    return null;
  }

  /** Closes the database (flushing what is in memory); deletes a temporary one unless kept. */
  @Override
  public void close() throws IOException {
    try {
      cellar.close();
    } finally {
      if (temporary && !keep) {
        deleteTree(Path.of(directory));
        deleteLog();
      }
    }
  }

  /** True if the directory is deleted by {@link #close()}. */
  boolean deletedOnClose() {
    return temporary && !keep;
  }

  /**
   * Deletes the log of a temporary database kept elsewhere ({@code --wal-dir}): its {@code wal/}
   * directory there, bound to the deleted database, would refuse the next run's.
   */
  private void deleteLog() throws IOException {
    String walRoot = config.get(CellarConfig.WAL_DIR);
    if (walRoot == null) {
      return;
    }
    try (StorageLocation root = StorageLocation.resolve(walRoot, EngineAccess.settings(config))) {
      Path log = root.directory().resolve("wal");
      for (Path file : root.storage().list(log)) {
        root.storage().deleteIfExists(file);
      }
      root.storage().deleteIfExists(log);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
