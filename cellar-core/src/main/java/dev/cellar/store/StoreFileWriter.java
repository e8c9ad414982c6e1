package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * Writes a store's new HFile (a flush or a compaction's output) from a sorted stream of cells: into
 * a temporary file under the family directory's {@code .tmp}, forced, then renamed into place and
 * the directory forced, so a crash never leaves a half-written file among the store's files and a
 * file the caller goes on to rely on survives a power loss by name. The file info records the
 * highest sequence id, write-ahead-log id and timestamp of the cells, and whether a major
 * compaction wrote it, and for a compaction the names of its inputs ({@value
 * #COMPACTION_INPUTS_KEY}, comma-separated: an input a crash left behind is then known for one
 * whose cells are in this file). The caller names the file ({@link #newName}) so that it can record
 * its intent in the manifest before the file exists. Every file operation goes through the given
 * {@link Storage}. Stateless.
 */
final class StoreFileWriter {

  static final String TMP_DIRECTORY = ".tmp";
  static final String COMPACTION_INPUTS_KEY = "CELLAR_COMPACTION_INPUTS";

  private StoreFileWriter() {}

  /** A source of cells in order; null ends it. */
  interface CellSource {
    Cell next() throws IOException;
  }

  /** A new store file's name: 32 hex digits, as HBase names them. */
  static String newName() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  /** What a written file records of where its cells came from. */
  record Origin(
      long maxSequenceId, long maxWalId, boolean majorCompaction, List<String> compactedFrom) {

    /** A flush's output: no inputs. */
    static Origin flush(long maxSequenceId, long maxWalId) {
      return new Origin(maxSequenceId, maxWalId, false, List.of());
    }
  }

  /**
   * Writes every cell of {@code source} to a new file {@code name} in {@code familyDirectory} and
   * returns its path. A source without cells (a major compaction that dropped everything) still
   * gets a file: its ids say up to where the family's edits are in its files, which recovery needs.
   * With {@code includesTags} the file keeps the cells' tags whatever the family's context says (a
   * compaction of bulk-loaded files that carry tags).
   */
  static Path write(
      Storage storage,
      Path familyDirectory,
      String name,
      FamilySettings family,
      CellSource source,
      Origin origin,
      boolean includesTags)
      throws IOException {
    Path tmp = familyDirectory.resolve(TMP_DIRECTORY);
    storage.createDirectories(tmp);
    Path temporary = tmp.resolve(name);
    long maxTimestamp = Long.MIN_VALUE;
    try (HFileWriter writer =
        HFileWriter.create(
            storage.create(temporary),
            family.fileContext().toBuilder().includesTags(includesTags).build())) {
      for (Cell cell = source.next(); cell != null; cell = source.next()) {
        writer.append(cell);
        maxTimestamp = Math.max(maxTimestamp, cell.timestamp());
      }
      writer.appendFileInfo(StoreFile.MAX_TIMESTAMP_KEY, longBytes(maxTimestamp));
      writer.appendFileInfo(FileInfo.MAX_SEQ_ID_KEY, longBytes(origin.maxSequenceId()));
      writer.appendFileInfo(StoreFile.MAX_WAL_ID_KEY, longBytes(origin.maxWalId()));
      writer.appendFileInfo(
          FileInfo.MAJOR_COMPACTION_KEY, new byte[] {(byte) (origin.majorCompaction() ? 1 : 0)});
      if (!origin.compactedFrom().isEmpty()) {
        writer.appendFileInfo(
            COMPACTION_INPUTS_KEY,
            String.join(",", origin.compactedFrom()).getBytes(StandardCharsets.UTF_8));
      }
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
