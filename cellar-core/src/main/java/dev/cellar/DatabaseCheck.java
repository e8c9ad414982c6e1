package dev.cellar;

import dev.cellar.hfile.CorruptHFileException;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileVerifier;
import dev.cellar.io.DirectoryLock;
import dev.cellar.io.FileProblem;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.store.ManifestCheck;
import dev.cellar.store.wal.RecoveryBounds;
import dev.cellar.store.wal.WalCheck;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Verifies a database directory offline without changing a byte of it, and reports every problem
 * with file and offset: whether the database is open (its {@code LOCK} or the log's held, and by
 * whom: what an open process writes meanwhile may show as damage); each table's descriptor
 * (readable, naming its own directory, families with directories); each table's manifest and file
 * set ({@link ManifestCheck}); every live HFile in full ({@link HFileVerifier}: checksums, block
 * chain, index, blooms, cell order, trailer totals); every log segment ({@link WalCheck}). Each
 * problem says what the next open would do about it where that is known (drop a torn record, delete
 * an unlisted file, cut a torn log tail) or that the open fails.
 *
 * <p><b>Memory.</b> HFile blocks are read into buffers of an allocator of the check's own and
 * released before the next file. Not thread-safe; one check reads one directory once.
 */
public final class DatabaseCheck {

  /**
   * What a check found.
   *
   * @param lockHolder who holds the database or its log, if anyone does
   * @param tables table directories with a readable descriptor
   * @param manifestRecords intact manifest records across tables
   * @param hfiles live HFiles verified whole
   * @param cells cells in them
   * @param segments log segments read
   * @param entries intact log entries
   * @param problems what is wrong, in the order found, each on one line naming its file as the user
   *     knows it (on HDFS, its full URI)
   */
  public record Report(
      Optional<String> lockHolder,
      int tables,
      int manifestRecords,
      int hfiles,
      long cells,
      int segments,
      long entries,
      List<String> problems) {}

  private final Storage storage;
  private final Path directory;
  private final Storage walStorage;
  private final Path walDirectory;
  private final BufAllocator allocator;
  private final List<FileProblem> problems = new ArrayList<>();
  private int tables;
  private int manifestRecords;
  private int hfiles;
  private long cells;

  private DatabaseCheck(
      Storage storage,
      Path directory,
      Storage walStorage,
      Path walDirectory,
      BufAllocator allocator) {
    this.storage = storage;
    this.directory = directory;
    this.walStorage = walStorage;
    this.walDirectory = walDirectory;
    this.allocator = allocator;
  }

  /**
   * Checks the database in the local {@code directory}, its log inside it.
   *
   * @throws IOException if {@code directory} is not a Cellar database (no {@code tables/}), or
   *     naming a file that could not be listed or read at all
   */
  public static Report check(Path directory) throws IOException {
    try (BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      Storage storage = Storage.local();
      return check(WalPlacement.inside(storage, directory), storage, directory, allocator);
    }
  }

  /**
   * Checks the database at {@code location} (a path, or a URI such as {@code hdfs://host/path})
   * with its log where {@value CellarConfig#WAL_DIR} in {@code config} puts it (on another file
   * system, too); see {@link #check(Path)}.
   *
   * @throws IOException also if {@code location} is not a directory
   */
  public static Report check(String location, CellarConfig config) throws IOException {
    try (StorageLocation database = StorageLocation.resolve(location, config.settings());
        BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      if (!database.storage().isDirectory(database.directory())) {
        throw new IOException(location + " is not a directory");
      }
      try (WalPlacement wal = WalPlacement.resolve(database, config)) {
        return check(wal, database.storage(), database.directory(), allocator);
      }
    }
  }

  private static Report check(
      WalPlacement wal, Storage storage, Path directory, BufAllocator allocator)
      throws IOException {
    if (!storage.isDirectory(directory.resolve("tables"))) {
      throw new IOException(
          storage.describe(directory) + " is not a Cellar database (it has no tables/ directory)");
    }
    return new DatabaseCheck(storage, directory, wal.storage(), wal.directory(), allocator).run();
  }

  private Report run() throws IOException {
    Optional<String> holder = lockHolder(storage, directory);
    if (holder.isEmpty()) {
      holder = lockHolder(walStorage, walDirectory);
    }
    holder.ifPresent(
        who ->
            problems.add(
                FileProblem.of(
                    directory.resolve(DirectoryLock.FILE_NAME),
                    "held by "
                        + who
                        + ": the database is open, and what it writes meanwhile may show as"
                        + " damage below")));
    for (Path table : TableDirectory.all(storage, directory)) {
      checkTable(table);
    }
    List<String> lines = new ArrayList<>();
    problems.forEach(problem -> lines.add(problem.describe(storage)));
    WalCheck.Result wal = WalCheck.check(walStorage, walDirectory, recoveryBounds());
    wal.problems().forEach(problem -> lines.add(problem.describe(walStorage)));
    return new Report(
        holder,
        tables,
        manifestRecords,
        hfiles,
        cells,
        wal.segments(),
        wal.entries(),
        List.copyOf(lines));
  }

  /**
   * What the open would weigh the log's damage against; unknown when a table is damaged (the open
   * refuses for that already, and reports it).
   */
  private RecoveryBounds recoveryBounds() {
    try {
      return OpenAudit.verify(storage, directory);
    } catch (IOException | RuntimeException e) {
      return RecoveryBounds.UNKNOWN;
    }
  }

  /**
   * Who holds {@code directory} of {@code on}; a lock file that cannot be probed is a problem, not
   * a holder.
   */
  private Optional<String> lockHolder(Storage on, Path directory) {
    try {
      if (!on.isDirectory(directory)) {
        return Optional.empty();
      }
      return on.probeLock(directory);
    } catch (IOException e) {
      problems.add(
          FileProblem.of(
              directory.resolve(DirectoryLock.FILE_NAME),
              "cannot tell whether it is held: " + e.getMessage()));
      return Optional.empty();
    }
  }

  private void checkTable(Path table) throws IOException {
    if (!storage.isDirectory(table)) {
      problems.add(FileProblem.of(table, "not a table directory"));
      return;
    }
    Path descriptorFile = table.resolve(TableDirectory.DESCRIPTOR);
    if (TableDirectory.dropped(table)) {
      problems.add(
          FileProblem.of(
              table,
              "a dropped table's directory, left by an interrupted"
                  + " drop (the next open deletes it)"));
      return;
    }
    if (!storage.isFile(descriptorFile)) {
      problems.add(
          FileProblem.of(
              table,
              TableDirectory.holdsData(storage, table)
                  ? "a table directory without "
                      + TableDirectory.DESCRIPTOR
                      + " that holds data: the"
                      + " descriptor was lost (the next open refuses; 'cellar repair' sets it aside)"
                  : "a table directory without "
                      + TableDirectory.DESCRIPTOR
                      + " or data, left by an"
                      + " interrupted create (the next open deletes it)"));
      return;
    }
    TableDirectory.Stored stored;
    try {
      stored = TableDirectory.read(storage, table);
    } catch (IOException | RuntimeException e) {
      problems.add(FileProblem.of(descriptorFile, "unreadable descriptor: " + e.getMessage()));
      return;
    }
    TableDescriptor descriptor = stored.descriptor();
    tables++;
    Path expected = Cellar.tableDirectory(directory, descriptor.name());
    if (!expected.equals(table.normalize())) {
      problems.add(
          FileProblem.of(
              descriptorFile,
              "names table '" + descriptor.name() + "', whose directory is " + expected));
    }
    List<String> families = new ArrayList<>();
    descriptor.families().forEach(family -> families.add(family.name()));
    TableRegions regions = stored.placed(table);
    if (regions.rooted()) {
      checkRegion(table, families, Set.of(TableDirectory.DESCRIPTOR));
      return;
    }
    Set<String> regionDirectories = new HashSet<>();
    regionDirectories.add(TableDirectory.DESCRIPTOR);
    for (TableRegions.Place region : regions.places()) {
      regionDirectories.add(region.directory().getFileName().toString());
    }
    checkEntries(table, regionDirectories, "not a region of the table");
    for (TableRegions.Place region : regions.places()) {
      if (storage.isDirectory(region.directory())) {
        checkRegionInfo(region);
        checkRegion(region.directory(), families, Set.of(RegionInfoFile.NAME));
      }
    }
  }

  /** Reports a region's {@value RegionInfoFile#NAME} that names another region. */
  private void checkRegionInfo(TableRegions.Place region) {
    Path file = region.directory().resolve(RegionInfoFile.NAME);
    try {
      if (storage.isFile(file)
          && !RegionInfoFile.read(storage, region.directory()).equals(region.info())) {
        problems.add(
            FileProblem.of(
                file,
                "names another region than the descriptor's "
                    + region.info()
                    + " (the next open writes it again)"));
      }
    } catch (IOException | RuntimeException e) {
      problems.add(FileProblem.of(file, e.getMessage() + " (the next open writes it again)"));
    }
  }

  /** Checks a region's directory: its entries, its manifest and its files. */
  private void checkRegion(Path region, List<String> families, Set<String> alsoThere)
      throws IOException {
    Set<String> expected = new HashSet<>(families);
    expected.addAll(alsoThere);
    expected.add(ManifestCheck.FILE_NAME);
    checkEntries(region, expected, null);
    ManifestCheck.Result manifest = ManifestCheck.check(storage, region, families);
    manifestRecords += manifest.records();
    problems.addAll(manifest.problems());
    for (List<Path> files : manifest.files().values()) {
      for (Path file : files) {
        if (storage.isFile(file)) {
          verifyHFile(file);
        }
      }
    }
  }

  /**
   * Reports what {@code directory} (a table's or a region's) holds besides {@code expected}: a
   * directory as {@code strayDirectory} (null: one of no family in the table's descriptor).
   */
  private void checkEntries(Path directory, Set<String> expected, String strayDirectory)
      throws IOException {
    for (Path path : storage.list(directory)) {
      if (!expected.contains(path.getFileName().toString())) {
        problems.add(
            FileProblem.of(
                path,
                storage.isDirectory(path)
                    ? (strayDirectory == null
                        ? "a directory of no family in the table's descriptor"
                        : strayDirectory)
                    : "not part of the table (a descriptor or manifest rewrite a crash interrupted?)"));
      }
    }
  }

  private void verifyHFile(Path file) {
    try (HFileReader reader =
        HFileReader.open(storage, file, allocator, UnaryOperator.identity())) {
      cells += HFileVerifier.verify(reader).cells();
      hfiles++;
    } catch (CorruptHFileException e) {
      String prefix = e.file() + " at offset " + e.offset() + ": ";
      String message = e.getMessage();
      problems.add(
          new FileProblem(
              file,
              e.offset(),
              message.startsWith(prefix) ? message.substring(prefix.length()) : message));
    } catch (IOException | RuntimeException e) {
      problems.add(FileProblem.of(file, "not readable as an HFile: " + e));
    }
  }
}
