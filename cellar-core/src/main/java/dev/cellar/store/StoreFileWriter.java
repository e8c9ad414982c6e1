package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * Writes a store's new HFile (a flush or a compaction's output) from a sorted stream of cells:
 * into a temporary file under the family directory's {@code .tmp}, then renamed into place, so a
 * crash never leaves a half-written file among the store's files. The file info records the
 * highest sequence id, write-ahead-log id and timestamp of the cells, and whether a major
 * compaction wrote it.
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
   * Writes every cell of {@code source} to a new file in {@code familyDirectory}.
   *
   * @return the new file's path, or null if the source had no cell (no file is left behind)
   */
  static Path write(Path familyDirectory, FamilySettings family, CellSource source,
      long maxSequenceId, long maxWalId, boolean majorCompaction) throws IOException {
    Path tmp = familyDirectory.resolve(TMP_DIRECTORY);
    Files.createDirectories(tmp);
    String name = UUID.randomUUID().toString().replace("-", "");
    Path temporary = tmp.resolve(name);
    long cells = 0;
    long maxTimestamp = Long.MIN_VALUE;
    try (HFileWriter writer = HFileWriter.create(temporary, family.fileContext())) {
      for (Cell cell = source.next(); cell != null; cell = source.next()) {
        writer.append(cell);
        maxTimestamp = Math.max(maxTimestamp, cell.timestamp());
        cells++;
      }
      writer.appendFileInfo(StoreFile.MAX_TIMESTAMP_KEY, longBytes(maxTimestamp));
      writer.appendFileInfo(FileInfo.MAX_SEQ_ID_KEY, longBytes(maxSequenceId));
      writer.appendFileInfo(StoreFile.MAX_WAL_ID_KEY, longBytes(maxWalId));
      writer.appendFileInfo(FileInfo.MAJOR_COMPACTION_KEY,
          new byte[] {(byte) (majorCompaction ? 1 : 0)});
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    if (cells == 0) {
      Files.delete(temporary);
      return null;
    }
    Path target = familyDirectory.resolve(name);
    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    return target;
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
