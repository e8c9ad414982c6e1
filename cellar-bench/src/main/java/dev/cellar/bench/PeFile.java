package dev.cellar.bench;

import dev.cellar.cell.KeyValue;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * An HFile of {@link PeCells} rows {@code 0 .. cells-1} written by Cellar's writer into a temporary
 * directory of its own, which {@link #close()} deletes. The bytes depend only on the arguments (the
 * values are seeded and the creation time is fixed), so every fork of a benchmark reads the same
 * file, and Cellar's and HBase's readers read identical bytes.
 *
 * @param path the file
 * @param cells how many cells it holds
 * @param cellBytes the sum of the cells' KeyValue serializations (key and value with their
 *     lengths): the uncompressed cell data a full scan reads
 */
record PeFile(Path path, int cells, long cellBytes) implements AutoCloseable {

  private static final long SEED = 20_250_101L;
  private static final long CREATE_TIME = PeCells.TIMESTAMP;

  /**
   * Writes the file with HBase's default block size (64 KiB), checksums and mvcc.
   *
   * @param format the encoding and compression, as {@code ENCODING/COMPRESSION} ({@code
   *     FAST_DIFF/SNAPPY}), HBase's names for both
   */
  static PeFile write(String format, int cells, int valueSize) throws IOException {
    return write(format, cells, valueSize, PeCells.ROW_LENGTH);
  }

  /** {@link #write(String, int, int)} with rows of {@code rowLength} digits. */
  static PeFile write(String format, int cells, int valueSize, int rowLength) throws IOException {
    String[] parts = format.split("/", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException("format must be ENCODING/COMPRESSION, was " + format);
    }
    HFileContext context =
        HFileContext.builder()
            .encoding(DataBlockEncoding.fromName(parts[0]))
            .compression(Compression.fromName(parts[1]))
            .createTime(CREATE_TIME)
            .build();
    Path path = Files.createTempDirectory("cellar-bench-").resolve("pe.hfile");
    Random random = new Random(SEED);
    long cellBytes = 0;
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (int i = 0; i < cells; i++) {
        KeyValue cell = PeCells.cell(i, rowLength, PeCells.value(random, valueSize));
        writer.append(cell);
        cellBytes += cell.length();
      }
    }
    return new PeFile(path, cells, cellBytes);
  }

  /** Deletes the file and its directory. */
  @Override
  public void close() throws IOException {
    Files.deleteIfExists(path);
    Files.deleteIfExists(path.getParent());
  }
}
