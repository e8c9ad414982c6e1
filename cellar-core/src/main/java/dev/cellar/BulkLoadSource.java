package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.hfile.HFileVerifier;
import dev.cellar.memory.BufAllocator;
import dev.cellar.schema.Compression;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The HFiles of a bulk-load directory, found and verified as HBase's {@code completebulkload} finds
 * them, before anything is loaded.
 *
 * <p><b>Layout.</b> {@code <dir>/<family>/<hfile>}. As HBase's tool does, it skips top-level
 * entries that are not directories, whose names start with {@code .} or {@code _}, and a region
 * directory's {@code recovered.edits}; in a family directory it skips what is not a regular file,
 * names starting with {@code _} or {@code .} (Hadoop's {@code .crc} files, unfinished exports),
 * HBase's reference files ({@code <hex>.<region>}) and links ({@code table=region-hfile}), and
 * HFiles without cells. HBase's own names, {@code <hex>} and {@code <hex>_SeqId_<n>_}, are taken as
 * they are.
 *
 * <p><b>Verification.</b> Every file is read whole ({@link HFileVerifier}: every block's checksum,
 * the trailer's totals, the index, the blooms, cells in ascending order), then every cell's family
 * is compared with its directory's name. The first problem is thrown as a {@link
 * BulkLoadException}, one line naming the file. Reads bypass the block cache. Stateless.
 */
final class BulkLoadSource {

  /** HBase's reference file name: an HFile's name, a dot, the parent region's encoded name. */
  private static final Pattern REFERENCE = Pattern.compile("^[0-9a-f]+(_SeqId_[0-9]+_)?\\..+$");

  private static final String RECOVERED_EDITS = "recovered.edits";

  private BulkLoadSource() {}

  /** A verified HFile: its family, path, cells and compression. */
  record LoadFile(
      String family,
      Path path,
      long cells,
      Compression compression,
      byte[] firstRow,
      byte[] lastRow) {}

  /** What reading a file's cells found: how many, and its first and last rows. */
  private record Rows(long cells, byte[] first, byte[] last) {}

  /**
   * The non-empty HFiles of {@code dir} by family (in name order), each verified whole.
   *
   * @throws BulkLoadException for a directory without HFiles or a file that is not a sound HFile of
   *     its family
   */
  static Map<String, List<LoadFile>> find(
      Path dir, BufAllocator allocator, Consumer<String> progress) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new BulkLoadException(dir + ": not a directory (expected <dir>/<family>/<hfile>)");
    }
    Map<String, List<LoadFile>> families = new LinkedHashMap<>();
    for (Path entry : sorted(dir)) {
      String name = entry.getFileName().toString();
      if (!Files.isDirectory(entry)
          || name.startsWith(".")
          || name.startsWith("_")
          || name.equals(RECOVERED_EDITS)) {
        progress.accept("skipping " + entry);
        continue;
      }
      try {
        ColumnFamilyDescriptor.of(name);
      } catch (IllegalArgumentException e) {
        progress.accept("skipping " + entry + ": not a family name (" + e.getMessage() + ")");
        continue;
      }
      List<LoadFile> files = new ArrayList<>();
      for (Path file : sorted(entry)) {
        String fileName = file.getFileName().toString();
        if (!Files.isRegularFile(file) || fileName.startsWith("_") || fileName.startsWith(".")) {
          continue;
        }
        if (REFERENCE.matcher(fileName).matches() || fileName.contains("=")) {
          progress.accept("skipping " + file + ": an HBase reference or link, not an HFile");
          continue;
        }
        LoadFile verified = verify(name, file, allocator);
        if (verified.cells() == 0) {
          progress.accept("skipping " + file + ": no cells");
          continue;
        }
        progress.accept("verified " + file + ": " + verified.cells() + " cells");
        files.add(verified);
      }
      if (!files.isEmpty()) {
        families.put(name, files);
      }
    }
    if (families.isEmpty()) {
      throw new BulkLoadException(dir + ": no HFiles to load (expected <dir>/<family>/<hfile>)");
    }
    return families;
  }

  private static List<Path> sorted(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.sorted().toList();
    }
  }

  private static LoadFile verify(String family, Path file, BufAllocator allocator)
      throws BulkLoadException {
    HFileReader reader;
    try {
      reader = HFileReader.open(file, allocator);
    } catch (IOException | RuntimeException e) {
      throw new BulkLoadException(file + ": not an HFile: " + e.getMessage(), e);
    }
    try (reader) {
      HFileVerifier.verify(reader);
      Rows rows = checkFamily(family, file, reader);
      return new LoadFile(
          family, file, rows.cells(), reader.trailer().compression(), rows.first(), rows.last());
    } catch (BulkLoadException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new BulkLoadException(file + ": corrupt HFile: " + e.getMessage(), e);
    }
  }

  /** Reads every cell, checking its family; returns how many there are and the rows they span. */
  private static Rows checkFamily(String family, Path file, HFileReader reader) throws IOException {
    MemorySegment expected = MemorySegment.ofArray(Bytes.toBytes(family));
    long cells = 0;
    byte[] first = null;
    try (HFileScanner scanner = reader.scanner(false)) {
      for (boolean more = scanner.seekTo(); more; more = scanner.next()) {
        Cell cell = scanner.current();
        if (!Bytes.equals(
            cell.segment(),
            cell.familyOffset(),
            cell.familyLength(),
            expected,
            0,
            (int) expected.byteSize())) {
          throw new BulkLoadException(
              file
                  + ": cell "
                  + cell
                  + " is of family '"
                  + Bytes.toStringBinary(cell.familyArray())
                  + "', not of its directory's family '"
                  + family
                  + "'");
        }
        if (first == null) {
          first = cell.rowArray();
        }
        cells++;
      }
    }
    return new Rows(cells, first, lastRow(reader.lastKey()));
  }

  /** The row of a serialized key (a 2-byte length, then the row), or null for no key. */
  private static byte[] lastRow(byte[] key) {
    if (key == null) {
      return null;
    }
    int length = ((key[0] & 0xff) << 8) | (key[1] & 0xff);
    return Arrays.copyOfRange(key, 2, 2 + length);
  }
}
