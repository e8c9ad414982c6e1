package dev.cellar;

import dev.cellar.hfile.CorruptHFileException;
import dev.cellar.hfile.HFileReader;
import dev.cellar.io.FileProblem;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.store.DamagedTableException;
import dev.cellar.store.FileSetAudit;
import dev.cellar.store.wal.RecoveryBounds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What an open decides about a database's tables before it writes anything: every table directory
 * is read (its descriptor, its manifest, its files, {@link FileSetAudit}; each live HFile's trailer
 * and the blocks an open reads first, checksums verified) and any damage that would make the open
 * refuse is found here, so that a refused open leaves the directory as it found it. Directories a
 * crash left (a create without its descriptor, a dropped table's directory) are no damage; the open
 * clears them afterwards. What the manifests say each table is flushed up to is what the log's
 * recovery weighs damage against ({@link RecoveryBounds}). Reads only; stateless.
 */
final class OpenAudit {

  private OpenAudit() {}

  /**
   * Reads every table of the database in {@code database}, and returns what their manifests say of
   * the log.
   *
   * @throws DamagedTableException naming the table's files if a table's directory holds files its
   *     manifest cannot account for, or data without a descriptor
   * @throws IOException naming the file if a descriptor or manifest cannot be read, or a descriptor
   *     names another table's directory
   */
  static RecoveryBounds verify(Storage storage, Path database) throws IOException {
    Map<String, Long> floors = new HashMap<>();
    long highest = 0;
    if (!storage.isDirectory(database.resolve(TableDirectory.TABLES))) {
      return RecoveryBounds.of(floors, highest);
    }
    for (Path table : TableDirectory.all(storage, database)) {
      if (!storage.isDirectory(table) || TableDirectory.dropped(table)) {
        continue;
      }
      if (!storage.isFile(table.resolve(TableDirectory.DESCRIPTOR))) {
        verifyLeftover(storage, table);
        continue;
      }
      TableDirectory.Stored stored = TableDirectory.read(storage, table);
      checkPlace(database, table, stored.descriptor());
      for (TableRegions.Place region : stored.placed(table).places()) {
        long floor = Long.MAX_VALUE;
        for (long flushed :
            verifyRegion(storage, region.directory(), stored.descriptor()).flushed().values()) {
          floor = Math.min(floor, flushed);
          highest = Math.max(highest, flushed);
        }
        floors.put(
            region.walKey(),
            Math.max(stored.createdAtWalId(), floor == Long.MAX_VALUE ? 0 : floor));
      }
    }
    return RecoveryBounds.of(floors, highest);
  }

  private static void verifyLeftover(Storage storage, Path table) throws IOException {
    if (TableDirectory.holdsData(storage, table)) {
      throw new IOException(
          "table directory "
              + storage.describe(table)
              + " has no "
              + TableDirectory.DESCRIPTOR
              + " but holds data (a create or drop leaves none): the"
              + " descriptor was lost; nothing was changed, and 'cellar repair' on the database"
              + " sets the directory aside");
    }
  }

  private static void checkPlace(Path database, Path table, TableDescriptor descriptor)
      throws IOException {
    Path expected = Cellar.tableDirectory(database, descriptor.name());
    if (!expected.equals(table.normalize())
        && !TableDirectory.legacy(database, table, descriptor.name())) {
      throw new IOException(
          table.resolve(TableDirectory.DESCRIPTOR)
              + ": names table '"
              + descriptor.name()
              + "', whose directory is "
              + expected
              + ", not "
              + table
              + "; nothing was changed");
    }
  }

  /** Audits the region in {@code region} of the table {@code descriptor} and reads its files. */
  private static FileSetAudit.Verdict verifyRegion(
      Storage storage, Path region, TableDescriptor descriptor) throws IOException {
    List<String> families = new ArrayList<>();
    descriptor.families().forEach(family -> families.add(family.name()));
    FileSetAudit.Verdict verdict = FileSetAudit.auditTable(storage, region, families);
    if (verdict.damaged()) {
      throw new DamagedTableException(region, verdict.damage());
    }
    List<FileProblem> unreadable = new ArrayList<>();
    for (Path file : verdict.live()) {
      try (HFileReader reader =
          HFileReader.open(storage, file, BufAllocator.HEAP, UnaryOperator.identity())) {
        reader.fileInfo();
      } catch (CorruptHFileException e) {
        unreadable.add(
            new FileProblem(file, e.offset(), "not a readable HFile: " + e.getMessage()));
      } catch (IOException | RuntimeException e) {
        unreadable.add(FileProblem.of(file, "not a readable HFile: " + e.getMessage()));
      }
    }
    if (!unreadable.isEmpty()) {
      throw new DamagedTableException(region, unreadable);
    }
    return verdict;
  }
}
