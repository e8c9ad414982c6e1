package dev.cellar;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.store.wal.WalLayout;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a database's write-ahead log lives: {@code wal/} in the database directory, or, with
 * HBase's {@value CellarConfig#WAL_DIR} set to another directory, {@code wal/} in that one, on the
 * same file system or another (the data on HDFS and the log on a local disk, or the reverse).
 *
 * <p><b>HBase's rule.</b> As HBase's {@code CommonFSUtils.getWALRootDir} requires, the log's
 * directory is the database directory itself or lies outside it: a {@value CellarConfig#WAL_DIR}
 * below the database directory is refused (it would be taken for a table or the log of the database
 * itself), and so is a database directory inside the log's {@code wal/}.
 *
 * <p><b>Finding the right log.</b> An open with the wrong {@value CellarConfig#WAL_DIR} would start
 * an empty log and never replay the edits the real one holds, or take another database's log for
 * its own. So a log outside its database is bound to it both ways ({@link #claim}): the database
 * directory keeps the log's URI in {@value #LOCATION_FILE}, the log directory the database's URI in
 * {@link WalLayout#OWNER_FILE}, each written once and then checked at every open; an open whose log
 * is elsewhere also fails while the database's own {@code wal/} holds segments. {@link Cellar} also
 * fails an open whose log has handed out fewer ids than a table's files say were already written.
 * Moving a log is therefore a deliberate act: close the database, move the log's directory and
 * rewrite {@value #LOCATION_FILE} and {@link WalLayout#OWNER_FILE}.
 *
 * <p>Owns the connection to the log's file system when it is not the database's ({@link #close()}
 * ends it). Immutable.
 */
record WalPlacement(
    Storage storage,
    Path directory,
    String described,
    URI databaseUri,
    URI logUri,
    StorageLocation connection)
    implements AutoCloseable {

  /**
   * In the database directory of a database whose log lives elsewhere: the URI of the log's
   * directory, in UTF-8.
   */
  static final String LOCATION_FILE = "wal.location";

  /** The log's directory, under the database directory or {@value CellarConfig#WAL_DIR}. */
  static final String SUBDIRECTORY = "wal";

  /** The log in {@code wal/} of the database directory {@code database}. */
  static WalPlacement inside(Storage storage, Path database) {
    Path directory = database.resolve(SUBDIRECTORY);
    return new WalPlacement(storage, directory, storage.describe(directory), null, null, null);
  }

  /**
   * Where the log of the database at {@code database} lives under {@code config}: inside it unless
   * {@value CellarConfig#WAL_DIR} names another directory, which is then resolved (connecting to
   * its file system if it is not the database's).
   *
   * @throws IOException in one line naming {@value CellarConfig#WAL_DIR} and both directories, if
   *     the log's directory is below the database's or the database's is inside the log's
   */
  static WalPlacement resolve(StorageLocation database, CellarConfig config) throws IOException {
    String walRoot = config.get(CellarConfig.WAL_DIR);
    if (walRoot == null || walRoot.isBlank()) {
      return inside(database.storage(), database.directory());
    }
    StorageLocation root = StorageLocation.resolve(walRoot.trim(), config.settings());
    try {
      if (root.contains(database) && database.contains(root)) {
        root.close();
        return inside(database.storage(), database.directory());
      }
      if (database.contains(root)) {
        throw new IOException(
            CellarConfig.WAL_DIR
                + "="
                + walRoot
                + " lies inside the database"
                + " directory "
                + database
                + ": the log's directory must be the database directory"
                + " itself or outside it (HBase's rule for hbase.wal.dir and hbase.rootdir)");
      }
      Path directory = root.directory().resolve(SUBDIRECTORY);
      if (root.contains(database) && database.directory().startsWith(directory)) {
        throw new IOException(
            "the database directory "
                + database
                + " lies inside the log's"
                + " directory "
                + root.storage().describe(directory)
                + " ("
                + CellarConfig.WAL_DIR
                + "="
                + walRoot
                + "): give the database a directory of its own");
      }
      return new WalPlacement(
          root.storage(),
          directory,
          root.storage().describe(directory),
          database.uri(),
          URI.create(root.uri() + "/" + SUBDIRECTORY),
          root);
    } catch (IOException | RuntimeException e) {
      try {
        root.close();
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  /**
   * Checks, with the database locked and before the log is opened, that the log is this database's
   * (see the class comment); {@link #bind} checks the log's owner again once the log's own lock is
   * held. Nothing to check for a log in the database's own {@code wal/}, unless the database was
   * bound to a log elsewhere.
   *
   * @throws IOException in one line naming both places and what to do, if the log is another's or
   *     the database's edits are elsewhere
   */
  void claim(Storage databaseStorage, Path database) throws IOException {
    Path locationFile = database.resolve(LOCATION_FILE);
    String recordedLog = readIfExists(databaseStorage, locationFile);
    if (logUri == null) {
      if (recordedLog != null) {
        throw new IOException(
            databaseStorage.describe(database)
                + ": its log lives in "
                + recordedLog
                + " ("
                + LOCATION_FILE
                + "), not in "
                + described
                + ": open it with "
                + CellarConfig.WAL_DIR
                + " (or --wal-dir) set to the directory holding that wal/");
      }
      return;
    }
    if (recordedLog != null && !recordedLog.equals(logUri.toString())) {
      throw new IOException(
          databaseStorage.describe(database)
              + ": its log lives in "
              + recordedLog
              + " ("
              + LOCATION_FILE
              + "), not in "
              + logUri
              + ": open it with "
              + CellarConfig.WAL_DIR
              + " set to the directory holding that wal/");
    }
    Path ownerFile = directory.resolve(WalLayout.OWNER_FILE);
    String owner = readIfExists(storage, ownerFile);
    if (owner != null && !owner.equals(databaseUri.toString())) {
      throw new IOException(
          described
              + " is the log of the database "
              + owner
              + ", not of "
              + databaseUri
              + ": give each database a "
              + CellarConfig.WAL_DIR
              + " of its own");
    }
    checkNoSegmentsLeftIn(databaseStorage, database);
  }

  /**
   * Binds a log outside the database to it, once {@link #claim} and the open's other checks passed:
   * writes whichever of {@link WalLayout#OWNER_FILE} and {@value #LOCATION_FILE} is missing, each
   * forced before the open goes on.
   */
  void bind(Storage databaseStorage, Path database) throws IOException {
    if (logUri == null) {
      return;
    }
    String owner = readIfExists(storage, directory.resolve(WalLayout.OWNER_FILE));
    if (owner == null) {
      writeDurably(storage, directory, WalLayout.OWNER_FILE, databaseUri.toString());
    } else if (!owner.equals(databaseUri.toString())) {
      throw new IOException(
          described
              + " is the log of the database "
              + owner
              + ", not of "
              + databaseUri
              + ": give each database a "
              + CellarConfig.WAL_DIR
              + " of its own");
    }
    if (!databaseStorage.isFile(database.resolve(LOCATION_FILE))) {
      writeDurably(databaseStorage, database, LOCATION_FILE, logUri.toString());
    }
  }

  private void checkNoSegmentsLeftIn(Storage databaseStorage, Path database) throws IOException {
    Path own = database.resolve(SUBDIRECTORY);
    List<Path> segments =
        databaseStorage.list(own).stream()
            .filter(path -> WalLayout.parseFileName(path.getFileName().toString()) >= 0)
            .toList();
    if (!segments.isEmpty()) {
      throw new IOException(
          databaseStorage.describe(own)
              + " holds "
              + segments.size()
              + " log segment(s) of this database, but "
              + CellarConfig.WAL_DIR
              + " puts its log in "
              + described
              + ": open it without "
              + CellarConfig.WAL_DIR
              + " (or --wal-dir) to"
              + " replay them, or move them to "
              + described
              + " first");
    }
  }

  private static String readIfExists(Storage storage, Path file) throws IOException {
    if (!storage.isFile(file)) {
      return null;
    }
    return new String(storage.readAllBytes(file), StandardCharsets.UTF_8).trim();
  }

  /** Writes the small file {@code name} in {@code directory}: a forced temporary, renamed. */
  private static void writeDurably(Storage storage, Path directory, String name, String content)
      throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    Path temporary = directory.resolve(name + ".tmp");
    storage.deleteIfExists(temporary);
    try (AppendOnlyFile out = storage.create(temporary)) {
      out.append(bytes, 0, bytes.length);
      out.sync();
    }
    storage.rename(temporary, directory.resolve(name));
    storage.syncDirectory(directory);
  }

  /** Ends the connection to the log's file system, if it is not the database's. */
  @Override
  public void close() throws IOException {
    if (connection != null) {
      connection.close();
    }
  }
}
