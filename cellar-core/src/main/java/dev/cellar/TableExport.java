package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.store.RegionExport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Exports a table as HBase's bulk load takes it, {@code <out>/<family>/<hfile>}: a point-in-time
 * copy made while the table goes on taking writes, every version the family keeps, delete markers
 * applied (see {@link RegionExport} for what the files hold). The output directory must be new
 * or empty. Stateless.
 */
public final class TableExport {

  private TableExport() {}

  /**
   * Exports {@code table} of {@code cellar} into {@code out}, cutting files at {@code splitKeys}
   * (HBase's region boundaries; any order, duplicates ignored). Progress lines go to {@code
   * progress}.
   *
   * @throws BulkLoadException if {@code out} is a file or a directory that is not empty, or a
   *     split key is empty
   * @throws TableNotFoundException if there is no such table
   */
  public static List<RegionExport.FamilyExport> export(Cellar cellar, String table, Path out,
      List<byte[]> splitKeys, Consumer<String> progress) throws IOException {
    CellarTable source = (CellarTable) cellar.table(table);
    checkOutput(out);
    List<byte[]> keys = new ArrayList<>();
    for (byte[] key : splitKeys) {
      if (key.length == 0) {
        throw new BulkLoadException("split keys: an empty key is not a region boundary");
      }
      keys.add(key.clone());
    }
    keys.sort(Bytes::compare);
    for (int i = keys.size() - 1; i > 0; i--) {
      if (Bytes.compare(keys.get(i), keys.get(i - 1)) == 0) {
        keys.remove(i);
      }
    }
    cellar.storage().createDirectories(out);
    return RegionExport.export(source.region(), cellar.storage(), out, keys,
        System.currentTimeMillis(), progress);
  }

  private static void checkOutput(Path out) throws IOException {
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new BulkLoadException(out + ": exists and is not a directory");
    }
    if (Files.isDirectory(out)) {
      try (Stream<Path> entries = Files.list(out)) {
        if (entries.findAny().isPresent()) {
          throw new BulkLoadException(out + ": is not empty; export into a new or empty"
              + " directory");
        }
      }
    }
  }
}
