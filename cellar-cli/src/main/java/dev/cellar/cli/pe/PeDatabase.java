package dev.cellar.cli.pe;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The embedded database a PE run works on: the {@code --dir} directory, or a temporary one that
 * {@link #close()} deletes unless {@code --keep}; opened with the run's configuration. Knows how
 * to create PE's table and whether it holds rows.
 */
final class PeDatabase implements AutoCloseable {

  private final String directory;
  private final boolean temporary;
  private final boolean keep;
  private final Cellar cellar;

  private PeDatabase(String directory, boolean temporary, boolean keep, Cellar cellar) {
    this.directory = directory;
    this.temporary = temporary;
    this.keep = keep;
    this.cellar = cellar;
  }

  /**
   * Opens {@code location} (a local directory or a URI such as {@code hdfs://host:port/path}), or
   * a new local temporary directory when it is null.
   *
   * @throws PeException naming the directory and the problem when the configuration is refused
   */
  static PeDatabase open(String location, boolean keep, CellarConfig config) throws IOException {
    boolean temporary = location == null;
    String dir = temporary ? Files.createTempDirectory("cellar-pe-").toString() : location;
    try {
      return new PeDatabase(dir, temporary, keep, Cellar.open(dir, config));
    } catch (IllegalArgumentException e) {
      deleteIfTemporary(dir, temporary);
      throw new PeException("cannot open the database in " + dir + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      deleteIfTemporary(dir, temporary);
      throw e;
    }
  }

  private static void deleteIfTemporary(String dir, boolean temporary) throws IOException {
    if (temporary) {
      deleteTree(Path.of(dir));
    }
  }

  String directory() {
    return directory;
  }

  Cellar cellar() {
    return cellar;
  }

  /** PE's table, created with {@code options}' families and attributes if it does not exist. */
  Table createTableIfMissing(PeOptions options) throws IOException {
    if (!cellar.admin().tableExists(options.table())) {
      List<ColumnFamilyDescriptor> families = new ArrayList<>();
      for (int f = 0; f < options.families(); f++) {
        families.add(ColumnFamilyDescriptor.of(PeData.familyName(f), options.familyAttributes()));
      }
      cellar.admin().createTable(new TableDescriptor(options.table(), families));
    }
    return cellar.table(options.table());
  }

  /**
   * PE's table, which must exist and hold rows.
   *
   * @throws PeException saying to load it first otherwise
   */
  Table existingTable(PeOptions options) throws IOException {
    String hint = "run a write command first and keep the database, e.g. 'cellar pe --dir DIR"
        + " --keep --rows " + options.rowsPerThread() + " sequentialWrite " + options.threads()
        + "' then the same --dir with this command, or add --load to write the rows in this run";
    if (!cellar.admin().tableExists(options.table())) {
      throw new PeException("table " + options.table() + " does not exist in " + directory
          + ": " + hint);
    }
    Table table = cellar.table(options.table());
    try (ResultScanner scanner = table.scanner(new Scan().setLimit(1));
        Result first = scanner.next()) {
      if (first == null) {
        throw new PeException("table " + options.table() + " in " + directory + " is empty: "
            + hint);
      }
    }
    return table;
  }

  /** Closes the database (flushing what is in memory); deletes a temporary one unless kept. */
  @Override
  public void close() throws IOException {
    try {
      cellar.close();
    } finally {
      if (temporary && !keep) {
        deleteTree(Path.of(directory));
      }
    }
  }

  /** True if the directory is deleted by {@link #close()}. */
  boolean deletedOnClose() {
    return temporary && !keep;
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
