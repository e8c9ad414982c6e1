package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.io.Storage;
import dev.cellar.row.CollectedRow;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Writes a point-in-time copy of a region's families in HBase's bulk-load layout: {@code
 * <out>/<family>/<file>}, one flat directory per family, file names of 32 hex digits.
 *
 * <p><b>What is copied.</b> The region is flushed and every family's file set pinned at one moment
 * ({@link Region#flushAndPinFiles}); writes, flushes and compactions go on meanwhile and change
 * nothing the export reads. Each family's files are merged as a read of every version sees them: up
 * to the family's {@code VERSIONS}, without expired cells, with delete markers applied and not
 * written (the export is the table's content, as a major compaction would leave it), tags kept.
 *
 * <p><b>How it is written.</b> With the family's block size, encoding, compression and bloom
 * filter, tags included, and no per-cell sequence ids (HBase gives every cell of a bulk-loaded file
 * the file's sequence id). Besides HBase's own keys ({@code TIMERANGE}, {@code EARLIEST_PUT_TS},
 * the bloom type, written by {@link HFileWriter}), the file info holds what HBase's bulk-load
 * writer ({@code HFileOutputFormat2}) adds: {@code BULKLOAD_TIMESTAMP} (8-byte big-endian
 * milliseconds), {@code MAJOR_COMPACTION_KEY} true and {@code EXCLUDE_FROM_MINOR_COMPACTION} false
 * (one byte each, HBase's {@code Bytes.toBytes(boolean)}). With split keys, a family's cells are
 * cut into one file per range between them, so that no file spans two of HBase's regions. A file is
 * written as {@code _<name>.tmp} (a name HBase's tool and {@code cellar bulkload} skip) and renamed
 * once complete, so an interrupted export leaves no partial file under a loadable name.
 *
 * <p>Single-threaded; the pinned files are released whatever happens.
 */
public final class RegionExport {

  static final String BULKLOAD_TIME_KEY = "BULKLOAD_TIMESTAMP";
  static final String EXCLUDE_FROM_MINOR_COMPACTION_KEY = "EXCLUDE_FROM_MINOR_COMPACTION";
  private static final byte HBASE_TRUE = -1;
  private static final long PROGRESS_EVERY_CELLS = 1_000_000;

  private RegionExport() {}

  /** One family's written files and cell count. */
  public record FamilyExport(String family, List<Path> files, long cells) {}

  /**
   * Exports {@code region} into {@code out} (whose family directories are created), cutting files
   * at {@code splitKeys} (sorted, distinct, may be empty), reporting progress to {@code progress}.
   * {@code nowMillis} is the time TTLs are measured against and the files' bulk-load time.
   */
  public static List<FamilyExport> export(
      Region region,
      Storage storage,
      Path out,
      List<byte[]> splitKeys,
      long nowMillis,
      Consumer<String> progress)
      throws IOException {
    Map<Store, List<StoreFile>> pinned = region.flushAndPinFiles();
    try {
      List<FamilyExport> exported = new ArrayList<>();
      for (Map.Entry<Store, List<StoreFile>> family : pinned.entrySet()) {
        exported.add(
            exportFamily(
                region.name(),
                family.getKey().family(),
                family.getValue(),
                storage,
                out,
                splitKeys,
                nowMillis,
                progress));
      }
      return exported;
    } finally {
      pinned.values().forEach(files -> files.forEach(StoreFile::release));
    }
  }

  private static FamilyExport exportFamily(
      String table,
      FamilySettings family,
      List<StoreFile> files,
      Storage storage,
      Path out,
      List<byte[]> splitKeys,
      long nowMillis,
      Consumer<String> progress)
      throws IOException {
    Path directory = out.resolve(family.nameString());
    storage.createDirectories(directory);
    List<KeyValueScanner> sources = new ArrayList<>();
    for (StoreFile file : files) {
      KeyValueScanner scanner = file.scanner(false, file.maxSequenceId());
      if (scanner == null) {
        sources.forEach(KeyValueScanner::close);
        throw new IllegalStateException(file + " was released while pinned for an export");
      }
      sources.add(scanner);
    }
    ScanSpec spec =
        new ScanSpec(
            null,
            family.maxVersions(),
            0,
            Long.MAX_VALUE,
            family.ttlMillis(),
            family.minVersions(),
            nowMillis,
            null);
    HFileContext context =
        family.fileContext().toBuilder()
            .includesMvcc(false)
            .includesTags(true)
            .createTime(nowMillis)
            .build();
    try (StoreScanner scanner =
            new StoreScanner(sources, spec, KeyValue.firstOnRow(new byte[0]), false);
        RangeWriter writer = new RangeWriter(storage, directory, context, splitKeys, nowMillis)) {
      CollectedRow row = new CollectedRow();
      try {
        while (scanner.peek() != null) {
          row.clear();
          scanner.collectRow(row);
          for (int i = 0; i < row.size(); i++) {
            writer.append(row.get(i));
            if (writer.cells % PROGRESS_EVERY_CELLS == 0) {
              progress.accept(
                  "export "
                      + table
                      + ": family "
                      + family.nameString()
                      + ": "
                      + writer.cells
                      + " cells");
            }
          }
        }
      } finally {
        row.clear();
      }
      writer.finish();
      progress.accept(
          "export "
              + table
              + ": family "
              + family.nameString()
              + ": "
              + writer.cells
              + " cells in "
              + writer.written.size()
              + " file(s) from "
              + files.size()
              + " store file(s)");
      return new FamilyExport(family.nameString(), List.copyOf(writer.written), writer.cells);
    }
  }

  /**
   * Writes cells in order into one file per range between split keys, each under a temporary name
   * until complete; deletes an incomplete one on close.
   */
  private static final class RangeWriter implements AutoCloseable {
    private final Storage storage;
    private final Path directory;
    private final HFileContext context;
    private final List<byte[]> splitKeys;
    private final long nowMillis;
    private final List<Path> written = new ArrayList<>();
    private int range;
    private HFileWriter writer;
    private Path temporary;
    private long cells;

    RangeWriter(
        Storage storage,
        Path directory,
        HFileContext context,
        List<byte[]> splitKeys,
        long nowMillis) {
      this.storage = storage;
      this.directory = directory;
      this.context = context;
      this.splitKeys = splitKeys;
      this.nowMillis = nowMillis;
    }

    void append(Cell cell) throws IOException {
      int cellRange = range;
      while (cellRange < splitKeys.size()
          && Bytes.compare(
                  cell.segment(),
                  cell.rowOffset(),
                  cell.rowLength(),
                  MemorySegment.ofArray(splitKeys.get(cellRange)),
                  0,
                  splitKeys.get(cellRange).length)
              >= 0) {
        cellRange++;
      }
      if (cellRange != range) {
        finish();
        range = cellRange;
      }
      if (writer == null) {
        temporary = directory.resolve("_" + UUID.randomUUID().toString().replace("-", "") + ".tmp");
        writer = HFileWriter.create(storage.create(temporary), context);
      }
      writer.append(cell);
      cells++;
    }

    /** Completes the file being written, if any, and renames it to its final name. */
    void finish() throws IOException {
      if (writer == null) {
        return;
      }
      writer.appendFileInfo(BULKLOAD_TIME_KEY, longBytes(nowMillis));
      writer.appendFileInfo(FileInfo.MAJOR_COMPACTION_KEY, new byte[] {HBASE_TRUE});
      writer.appendFileInfo(EXCLUDE_FROM_MINOR_COMPACTION_KEY, new byte[] {0});
      HFileWriter closing = writer;
      writer = null;
      closing.close();
      String name = temporary.getFileName().toString();
      Path target = directory.resolve(name.substring(1, name.length() - ".tmp".length()));
      storage.rename(temporary, target);
      temporary = null;
      written.add(target);
    }

    @Override
    public void close() throws IOException {
      if (writer != null) {
        try {
          writer.close();
        } finally {
          writer = null;
          storage.deleteIfExists(temporary);
        }
      }
      if (!written.isEmpty()) {
        storage.syncDirectory(directory);
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
}
