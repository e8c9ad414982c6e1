package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cache.BlockCache;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.BufAllocator;
import dev.cellar.schema.DataBlockEncoding;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * A file of numbered rows read through a block cache, for the tests of reading through caches:
 * writing it, opening it behind a {@link CachingBlockLoader}, scanning it with every cell checked,
 * and seeking it from several threads at once. {@link Rows} says what the rows look like.
 */
final class CachedReadFixture {

  /**
   * Rows of {@link #writePerformanceEvaluation}: 24 full NONE blocks of 63 1000-byte rows, or 28
   * full ROW_INDEX_V1 blocks of 54 1176-byte rows (at 1000 bytes a ROW_INDEX_V1 block fits the pool
   * buffer; 1176 is the first size at which both encodings overshoot it).
   */
  static final int PE_ROWS = 1512;

  /** Header and payload of a NONE block of 63 1000-byte PE rows: 1 byte over the pool buffer. */
  static final int PE_BLOCK = 66_561;

  private CachedReadFixture() {}

  /** What the rows of a fixture file look like: one cell per row, each a function of its number. */
  static final class Rows {

    /** Short rows: {@code row-00000042}, family {@code f}, qualifier {@code q}, 8 to 100 bytes. */
    static final Rows NUMBERED =
        new Rows(
            i -> String.format("row-%08d", i).getBytes(),
            "f",
            "q",
            i -> ("value-" + i + "-" + "x".repeat(i % 90)).getBytes(),
            0);

    /** Sequence ids from here on take four bytes as an mvcc vlong. */
    private static final long FOUR_BYTE_SEQUENCE_IDS = 1L << 16;

    private final IntFunction<byte[]> rows;
    private final byte[] family;
    private final byte[] qualifier;
    private final IntFunction<byte[]> values;
    private final long firstSequenceId;

    private Rows(
        IntFunction<byte[]> rows,
        String family,
        String qualifier,
        IntFunction<byte[]> values,
        long firstSequenceId) {
      this.rows = rows;
      this.family = family.getBytes();
      this.qualifier = qualifier.getBytes();
      this.values = values;
      this.firstSequenceId = firstSequenceId;
    }

    /**
     * HBase PerformanceEvaluation's rows: 26-digit row keys, family {@code info0}, qualifier {@code
     * 0}, values of {@code valueLength} letters, and sequence ids of four mvcc bytes, as in a table
     * of a few hundred thousand rows. With 1000-byte values a cell takes 1056 bytes, so a 64 KiB
     * NONE data block closes after 63 of them: 66,561 bytes with its header, 66,581 on disk, just
     * over HBase's 65 KiB pool buffer.
     */
    static Rows performanceEvaluation(int valueLength) {
      return new Rows(
          i -> String.format("%026d", i).getBytes(),
          "info0",
          "0",
          i -> {
            byte[] value = new byte[valueLength];
            for (int j = 0; j < valueLength; j++) {
              value[j] = (byte) ('a' + (i + j / 16) % 26);
            }
            return value;
          },
          FOUR_BYTE_SEQUENCE_IDS);
    }

    byte[] row(int i) {
      return rows.apply(i);
    }

    byte[] value(int i) {
      return values.apply(i);
    }

    /** Row {@code i}'s cell, as written. */
    KeyValue cell(int i) {
      return KeyValue.create(row(i), family, qualifier, 1, CellType.PUT, value(i))
          .withSequenceId(firstSequenceId + i);
    }

    /** Asserts that {@code actual} is row {@code i}'s cell: row, family, qualifier, value. */
    void assertCell(int i, Cell actual, String message) {
      assertArrayEquals(row(i), actual.rowArray(), message);
      if (!Arrays.equals(family, actual.familyArray())
          || !Arrays.equals(qualifier, actual.qualifierArray())) {
        throw new AssertionError(message + ": row " + i + " has column " + actual);
      }
      assertArrayEquals(value(i), actual.valueArray(), message);
    }
  }

  /** Writes rows 0 to {@code cells} - 1 of {@code rows}, one cell each, to {@code path}. */
  static Path write(Path path, HFileContext context, Rows rows, int cells) throws IOException {
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (int i = 0; i < cells; i++) {
        writer.append(rows.cell(i));
      }
    }
    return path;
  }

  /**
   * Writes {@link #PE_ROWS} rows of {@link Rows#performanceEvaluation} in {@code dir} with HBase's
   * defaults (64 KiB blocks, no compression) and {@code encoding}.
   */
  static Path writePerformanceEvaluation(Path dir, DataBlockEncoding encoding, int valueLength)
      throws IOException {
    return write(
        dir.resolve("pe-" + encoding + "-" + valueLength + ".hfile"),
        HFileContext.builder().encoding(encoding).build(),
        Rows.performanceEvaluation(valueLength),
        PE_ROWS);
  }

  static HFileReader open(Path path, BufAllocator allocator, BlockCache cache) throws IOException {
    return HFileReader.open(
        path, allocator, direct -> new CachingBlockLoader(cache, direct, path.toString(), false));
  }

  /** Scans the whole file, checking every cell against {@code rows}; returns the cell count. */
  static int scan(HFileReader reader, Rows rows, boolean cacheBlocks) throws IOException {
    int cells = 0;
    try (HFileScanner scanner = reader.scanner(cacheBlocks)) {
      for (boolean more = scanner.seekTo(); more; more = scanner.next()) {
        rows.assertCell(cells, scanner.current(), "cell " + cells);
        cells++;
      }
    }
    assertEquals(cells, reader.trailer().entryCount(), "every cell was scanned");
    return cells;
  }

  /**
   * Seeks random rows from {@code threads} threads at once, {@code seeks} each, checking every cell
   * found; throws the first failure. Thread {@code t} draws its rows from {@code seed + t}.
   */
  static void concurrentSeeks(
      HFileReader reader, Rows rows, int cells, int threads, int seeks, long seed)
      throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Random random = new Random(seed + t);
      started.add(
          Thread.ofPlatform()
              .name("cached-reader-" + t)
              .start(
                  () -> {
                    try (HFileScanner scanner = reader.scanner(true)) {
                      for (int i = 0; i < seeks; i++) {
                        int target = random.nextInt(cells);
                        Cell key = KeyValue.firstOnRow(rows.row(target));
                        int result = scanner.seekTo(key);
                        if (result == HFileScanner.BEFORE_FILE) {
                          scanner.seekTo();
                        } else if (result == HFileScanner.BEFORE_KEY) {
                          scanner.next();
                        }
                        rows.assertCell(target, scanner.current(), "seek " + i);
                      }
                    } catch (Throwable e) {
                      failure.compareAndSet(null, e);
                    }
                  }));
    }
    for (Thread thread : started) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a reader failed", failure.get());
    }
  }
}
