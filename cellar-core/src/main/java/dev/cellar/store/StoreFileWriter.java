package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Writes a store's new HFile (a flush or a compaction's output) from a sorted stream of cells:
 * into a temporary file under the family directory's {@code .tmp}, forced, then renamed into
 * place and the directory forced, so a crash never leaves a half-written file among the store's
 * files and a file the caller goes on to rely on survives a power loss by name. The file info
 * records the highest sequence id, write-ahead-log id and timestamp of the cells, and whether a
 * major compaction wrote it. Every file operation goes through the given {@link Storage}.
 * Stateless.
 */
final class StoreFileWriter {

  static final String TMP_DIRECTORY = ".tmp";

  private StoreFileWriter() {}

  /** A source of cells in order; null ends it. */
  interface CellSource {
    Cell next() throws IOException;
  }

  /**
   * Writes every cell of {@code source} to a new file in {@code familyDirectory} and returns its
   * path. A source without cells (a major compaction that dropped everything) still gets a file:
   * its ids say up to where the family's edits are in its files, which recovery needs.
   */
  static Path write(Storage storage, Path familyDirectory, FamilySettings family,
      CellSource source, long maxSequenceId, long maxWalId, boolean majorCompaction)
      throws IOException {
    return write(storage, familyDirectory, family, source, maxSequenceId, maxWalId,
        majorCompaction, family.fileContext().includesTags());
  }

  /**
   * As above; with {@code includesTags} the file keeps the cells' tags whatever the family's
   * context says (a compaction of bulk-loaded files that carry tags).
   */
  static Path write(Storage storage, Path familyDirectory, FamilySettings family,
      CellSource source, long maxSequenceId, long maxWalId, boolean majorCompaction,
      boolean includesTags) throws IOException {
    Path tmp = familyDirectory.resolve(TMP_DIRECTORY);
    storage.createDirectories(tmp);
    String name = UUID.randomUUID().toString().replace("-", "");
    Path temporary = tmp.resolve(name);
    long maxTimestamp = Long.MIN_VALUE;
    try (HFileWriter writer = HFileWriter.create(storage.create(temporary),
        family.fileContext().toBuilder().includesTags(includesTags).build())) {
      for (Cell cell = source.next(); cell != null; cell = source.next()) {
        writer.append(cell);
        maxTimestamp = Math.max(maxTimestamp, cell.timestamp());
      }
      writer.appendFileInfo(StoreFile.MAX_TIMESTAMP_KEY, longBytes(maxTimestamp));
      writer.appendFileInfo(FileInfo.MAX_SEQ_ID_KEY, longBytes(maxSequenceId));
      writer.appendFileInfo(StoreFile.MAX_WAL_ID_KEY, longBytes(maxWalId));
      writer.appendFileInfo(FileInfo.MAJOR_COMPACTION_KEY,
          new byte[] {(byte) (majorCompaction ? 1 : 0)});
    } catch (IOException | RuntimeException e) {
      deleteQuietly(storage, temporary, e);
      throw e;
    }
    Path target = familyDirectory.resolve(name);
    storage.rename(temporary, target);
    storage.syncDirectory(familyDirectory);
    return target;
  }

  private static void deleteQuietly(Storage storage, Path path, Exception cause) {
    try {
      storage.deleteIfExists(path);
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private static byte[] longBytes(long value) {
    byte[] bytes = new byte[8];
    for (int i = 7; i >= 0; i--) {
      bytes[i] = (byte) value;
      value >>>= 8;
    }
    return bytes;
  }
}
