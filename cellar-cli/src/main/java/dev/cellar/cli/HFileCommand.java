package dev.cellar.cli;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.hfile.BlockHeader;
import dev.cellar.hfile.CorruptHFileException;
import dev.cellar.hfile.HFileBlock;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.hfile.HFileVerifier;
import dev.cellar.hfile.Trailer;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cellar hfile FILE}: prints an HFile's trailer, file info and index summary, and on request
 * its block listing, a checksum verification of every block, or its cells. Works on files written
 * by Cellar and by Apache HBase, on the local file system or HDFS (client settings from {@code
 * --conf} and {@code -D}). A bad file ends every mode with one line naming what is wrong and exit
 * code 1, never a stack trace.
 */
@Command(
    name = "hfile",
    mixinStandardHelpOptions = true,
    description = {
      "Inspect an HFile (v3).",
      "Shows its trailer, file info, index, blocks and cells, and verifies its checksums."
    },
    exitCodeList = "1:the file is damaged (one CORRUPT line says where) or could not be read")
final class HFileCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "the HFile to inspect: a path or a URI such as hdfs://host:8020/path")
  String file;

  /** Where {@link #file} lives, resolved by {@link #call()}. */
  private Storage storage;

  private Path path;

  @Option(
      names = "--blocks",
      description = "list every block: type, offset, sizes, encoding, compression")
  boolean blocks;

  @Option(
      names = "--verify",
      description =
          "verify the whole file: every block's checksums, the"
              + " block chain, index, blooms, cell order and trailer totals; exit 1 on corruption")
  boolean verify;

  @Option(names = "--cells", description = "print the cells")
  boolean cells;

  @Option(
      names = "--limit",
      defaultValue = "-1",
      description = "print at most this many cells (default: all)")
  long limit;

  @Mixin ConfigOptions settings;

  @Override
  public Integer call() {
    PrintStream out = System.out;
    try (StorageLocation location =
        StorageLocation.resolve(file, EngineAccess.settings(settings.config()))) {
      storage = location.storage();
      path = location.directory();
      if (!storage.isFile(path)) {
        throw new CommandFailure(file + " is not a file");
      }
      try (BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
        return verify ? verifyBlocks(out, allocator) : describe(out, allocator);
      }
    } catch (IOException e) {
      throw new CommandFailure(e.getMessage());
    }
  }

  private HFileReader open(BufAllocator allocator) throws IOException {
    return HFileReader.open(storage, path, allocator, UnaryOperator.identity());
  }

  private int describe(PrintStream out, BufAllocator allocator) {
    try (HFileReader reader = open(allocator)) {
      printSummary(out, reader);
      if (blocks) {
        listBlocks(out, reader);
      }
      if (cells) {
        printCells(out, reader);
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      return fail(out, e);
    }
  }

  private void printSummary(PrintStream out, HFileReader reader) throws IOException {
    Trailer trailer = reader.trailer();
    out.println("file: " + file + " (" + storage.size(path) + " bytes)");
    out.println("trailer:");
    out.println("  version: 3." + trailer.minorVersion());
    out.println("  compression: " + trailer.compression());
    out.println("  comparator: " + trailer.comparatorClassName());
    out.println("  entries: " + trailer.entryCount());
    out.println(
        "  data index: "
            + trailer.numDataIndexLevels()
            + " level(s), "
            + trailer.dataIndexCount()
            + " root entries, "
            + trailer.uncompressedDataIndexSize()
            + " bytes uncompressed");
    out.println("  meta index entries: " + trailer.metaIndexCount());
    out.println(
        "  first/last data block: "
            + trailer.firstDataBlockOffset()
            + " / "
            + trailer.lastDataBlockOffset());
    out.println(
        "  load-on-open offset: "
            + trailer.loadOnOpenDataOffset()
            + ", file info at "
            + trailer.fileInfoOffset());
    out.println("  total uncompressed bytes: " + trailer.totalUncompressedBytes());
    out.println("file info:");
    for (Map.Entry<byte[], byte[]> entry : reader.fileInfo().entries().entrySet()) {
      out.println(
          "  "
              + new String(entry.getKey(), StandardCharsets.UTF_8)
              + " = "
              + describeValue(entry.getValue()));
    }
    out.println(
        "encoding: "
            + reader.encoding()
            + ", tags: "
            + reader.encodingContext().includesTags()
            + ", mvcc: "
            + reader.encodingContext().includesMvcc()
            + ", bloom: "
            + reader.bloomType());
    out.println("first key: " + describeKey(reader.firstKey()));
    out.println("last key:  " + describeKey(reader.lastKey()));
    out.println("mid key:   " + describeKey(reader.midKey()));
  }

  private static String describeKey(byte[] key) {
    return key == null ? "(none)" : HFileReader.keyCell(key).toString();
  }

  private static String describeValue(byte[] value) {
    String text = Bytes.toStringBinary(value);
    if (value.length == Long.BYTES) {
      return text + " (long " + Bytes.toLong(value, 0) + ")";
    }
    if (value.length == Integer.BYTES) {
      return text + " (int " + Bytes.toInt(value, 0) + ")";
    }
    return text;
  }

  private void listBlocks(PrintStream out, HFileReader reader) throws IOException {
    out.println("blocks:");
    out.printf(
        "  %-26s %12s %10s %12s %s%n",
        "type", "offset", "on disk", "uncompressed", "encoding/compression");
    long end = storage.size(path) - Trailer.SIZE;
    long offset = 0;
    int count = 0;
    while (offset < end) {
      HFileBlock block = reader.readBlockUncached(offset, -1, null);
      try {
        BlockHeader header = block.header();
        String encoding = block.type().isData() ? reader.encoding().name() : "-";
        out.printf(
            "  %-26s %12d %10d %12d %s/%s%n",
            block.type(),
            offset,
            header.onDiskSizeWithHeader(),
            header.uncompressedSizeWithoutHeader(),
            encoding,
            reader.trailer().compression());
        offset += header.onDiskSizeWithHeader();
        count++;
      } finally {
        block.release();
      }
    }
    out.println("  " + count + " blocks, then the " + Trailer.SIZE + "-byte trailer");
  }

  private int verifyBlocks(PrintStream out, BufAllocator allocator) {
    try (HFileReader reader = open(allocator)) {
      HFileVerifier.Report report = HFileVerifier.verify(reader);
      out.println(
          "OK: "
              + file
              + ": "
              + report.blocks()
              + " blocks "
              + report.blocksByType()
              + " and "
              + report.cells()
              + " cells verified: checksums, block chain, index, blooms,"
              + " trailer totals"
              + withoutChecksums(report));
      return 0;
    } catch (IOException | RuntimeException e) {
      return fail(out, e);
    }
  }

  private static String withoutChecksums(HFileVerifier.Report report) {
    int unchecked = report.blocksWithoutChecksums();
    return unchecked == 0
        ? ""
        : "; "
            + unchecked
            + " of the blocks have checksum type NULL,"
            + " so a flipped bit in their payload goes unnoticed unless it breaks their structure";
  }

  /**
   * The one line that ends every mode on a bad file, exit code 1: {@code CORRUPT: } and the
   * reader's message (file, offset, expected, found) for corruption; {@code UNREADABLE: } for a
   * file the system would not read; {@code CORRUPT: } naming the failure for a file whose bytes
   * made the reader fail in a way it has no message for.
   */
  private int fail(PrintStream out, Exception e) {
    if (e instanceof CorruptHFileException) {
      out.println("CORRUPT: " + e.getMessage());
    } else if (e instanceof IOException) {
      out.println("UNREADABLE: " + file + ": " + reason(e));
    } else {
      out.println("CORRUPT: " + file + ": not readable as an HFile (" + reason(e) + ")");
    }
    return 1;
  }

  private static String reason(Exception e) {
    if (e instanceof FileSystemException fileSystem) {
      return FileFailures.reason(fileSystem);
    }
    String message = e.getMessage();
    String kind = e.getClass().getSimpleName();
    return message == null || message.isBlank() ? kind : kind + ": " + message;
  }

  private void printCells(PrintStream out, HFileReader reader) throws IOException {
    out.println("cells:");
    try (HFileScanner scanner = reader.scanner(false)) {
      long printed = 0;
      if (scanner.seekTo()) {
        do {
          Cell cell = scanner.current();
          out.println("  " + cell + " value=" + Bytes.toStringBinary(cell.valueArray()));
          printed++;
        } while ((limit < 0 || printed < limit) && scanner.next());
      }
    }
  }
}
