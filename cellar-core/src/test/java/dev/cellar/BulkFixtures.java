package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.schema.BloomType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Shared helpers of the export and bulk-load tests (here and the command line's): table dumps,
 * HFiles written and damaged.
 */
public final class BulkFixtures {

  private BulkFixtures() {}

  public static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Every cell of every version the table returns, one line each, in scan order. */
  public static List<String> dump(Table table) throws IOException {
    List<String> lines = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(new Scan().readVersions(Integer.MAX_VALUE))) {
      for (Result next = scanner.next(); next != null; next = scanner.next()) {
        try (Result result = next) {
          for (Cell cell : result.rawCells()) {
            lines.add(line(cell));
          }
        }
      }
    }
    return lines;
  }

  public static String line(Cell cell) {
    return Bytes.toStringBinary(cell.rowArray())
        + "/"
        + Bytes.toStringBinary(cell.familyArray())
        + ":"
        + Bytes.toStringBinary(cell.qualifierArray())
        + "/"
        + cell.timestamp()
        + "/"
        + cell.type()
        + "="
        + Bytes.toStringBinary(cell.valueArray())
        + (cell.tagsLength() > 0 ? " tags " + Bytes.toStringBinary(cell.tagsArray()) : "");
  }

  /** The file names under every family directory of a table, by directory. */
  public static TreeMap<String, List<String>> tableFiles(Path database, String table)
      throws IOException {
    TreeMap<String, List<String>> files = new TreeMap<>();
    Path directory = database.resolve("tables").resolve(table);
    if (!Files.isDirectory(directory)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path path : walk.filter(Files::isRegularFile).sorted().toList()) {
        files
            .computeIfAbsent(
                directory.relativize(path.getParent()).toString(), d -> new ArrayList<>())
            .add(path.getFileName().toString());
      }
    }
    return files;
  }

  /**
   * Writes an HFile of {@code rows} rows of family {@code family}, one cell each at timestamp 100,
   * each with a tag of type 7 holding the row, and per-cell sequence ids {@code 1000 + i} (ids of
   * another system's sequence space, which a bulk load must not order cells by).
   */
  public static Path writeHFile(Path file, String family, String rowPrefix, int rows, String value)
      throws IOException {
    Files.createDirectories(file.getParent());
    HFileContext context = HFileContext.builder().includesTags(true).build();
    try (HFileWriter writer = HFileWriter.create(file, context)) {
      for (int i = 0; i < rows; i++) {
        byte[] row = bytes(String.format("%s%05d", rowPrefix, i));
        KeyValue cell =
            KeyValue.create(
                row,
                bytes(family),
                bytes("q"),
                100,
                CellType.PUT,
                bytes(value),
                List.of(new Tag((byte) 7, row)));
        writer.append(cell.withSequenceId(1000 + i));
      }
    }
    return file;
  }

  /**
   * Writes an HFile of rows {@code r1}, {@code r2}, {@code r3} in one uncompressed block and no
   * bloom, then rewrites the middle row as {@code r5} and the block's checksums to match: a sound
   * file whose cells are out of order.
   */
  public static Path writeOutOfOrderHFile(Path file, String family) throws IOException {
    Files.createDirectories(file.getParent());
    HFileContext context =
        HFileContext.builder().includesMvcc(false).bloomType(BloomType.NONE).build();
    try (HFileWriter writer = HFileWriter.create(file, context)) {
      for (String row : List.of("r1", "r2", "r3")) {
        writer.append(
            KeyValue.create(bytes(row), bytes(family), bytes("q"), 100, CellType.PUT, bytes("v")));
      }
    }
    byte[] content = Files.readAllBytes(file);
    int at = indexOf(content, bytes("r2"));
    content[at + 1] = '5';
    int onDiskDataSizeWithHeader = ByteBuffer.wrap(content).getInt(29);
    int bytesPerChecksum = ByteBuffer.wrap(content).getInt(25);
    int checksums = onDiskDataSizeWithHeader;
    for (int chunk = 0; chunk < onDiskDataSizeWithHeader; chunk += bytesPerChecksum) {
      CRC32C crc = new CRC32C();
      crc.update(content, chunk, Math.min(bytesPerChecksum, onDiskDataSizeWithHeader - chunk));
      ByteBuffer.wrap(content).putInt(checksums, (int) crc.getValue());
      checksums += 4;
    }
    Files.write(file, content);
    return file;
  }

  /** Flips one bit in the middle of the file's first data block. */
  public static void flipBitInFirstBlock(Path file) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      long position = 33 + 20;
      channel.read(one, position);
      one.put(0, (byte) (one.get(0) ^ 0x10));
      channel.write(one.flip(), position);
    }
  }

  private static int indexOf(byte[] content, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= content.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (content[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalStateException("not found");
  }
}
