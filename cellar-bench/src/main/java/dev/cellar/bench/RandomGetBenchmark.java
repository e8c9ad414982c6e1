package dev.cellar.bench;

import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Random point reads over a whole HFile with no block cache: Cellar's {@link HFileScanner} against
 * HBase's, over the same file.
 *
 * <p>The file is about 32 MiB of {@link PeCells} cells ({@code valueSize} 1000 by default) in 64
 * KiB blocks, written by Cellar; {@code format} is {@code ENCODING/COMPRESSION}. One operation is a
 * get as a store file scanner does it: {@code seekTo(firstOnRow(row))} for a random row, then
 * {@code next()} when the scanner stopped on the cell before the row, then a read of the value's
 * length and first and last byte ({@link ValueSample}). The random rows are {@value #PICKS} fixed
 * picks cycled through, the same for both sides, and their keys are built in advance.
 *
 * <p>Nearly every get lands in another block than the previous one, so nearly every operation reads
 * one block from the file (the OS page cache): Cellar with a positional read into a pooled off-heap
 * buffer, HBase with a positional read ({@code pread} true, as for gets) into its pooled {@code
 * ByteBuffAllocator} (see {@link HBaseReaders}); both verify the block's checksums and decompress
 * it into a pooled buffer. HBase's scanner is told {@code shipped()} after every get, as a region
 * server does once it has sent the response, which lets it release the blocks it left.
 *
 * <p>Scores are nanoseconds per get; {@code gc.alloc.rate.norm} is heap bytes per get.
 *
 * <p>Run: {@code ./cellar bench jmh RandomGetBenchmark} (8 forks of about 10 s; add {@code -p
 * format=DIFF/ZSTD} for another format).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RandomGetBenchmark extends BenchmarkBase {

  /** The uncompressed size of the cells written, before encoding. */
  static final long FILE_BYTES = 32L << 20;

  /** How many random rows are drawn; both sides cycle through the same ones. */
  static final int PICKS = 4096;

  private static final long SEED = 7;

  @Benchmark
  public long cellar(CellarGet get) throws IOException {
    return get.getAndRead();
  }

  @Benchmark
  public long hbase(HBaseGet get) throws IOException {
    return get.getAndRead();
  }

  /** The file both readers read, and the rows both get. */
  @State(Scope.Benchmark)
  public static class GetFile {

    @Param({"NONE/NONE", "FAST_DIFF/NONE", "ROW_INDEX_V1/NONE", "FAST_DIFF/SNAPPY"})
    public String format;

    @Param({"1000"})
    public int valueSize;

    PeFile file;
    byte[][] rows;

    @Setup(Level.Trial)
    public void write() throws IOException {
      file = PeFile.write(format, (int) (FILE_BYTES / PeCells.unencodedSize(valueSize)), valueSize);
      rows =
          new Random(SEED)
              .ints(PICKS, 0, file.cells())
              .mapToObj(PeCells::row)
              .toArray(byte[][]::new);
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
      file.close();
    }
  }

  /** Cellar's reader, with no cache, and one scanner for every get. */
  @State(Scope.Thread)
  public static class CellarGet {

    private BufAllocator allocator;
    private HFileReader reader;
    private HFileScanner scanner;
    private dev.cellar.cell.KeyValue[] keys;
    private int next;

    @Setup(Level.Trial)
    public void open(GetFile file) throws IOException {
      allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
      reader = HFileReader.open(file.file.path(), allocator);
      scanner = reader.scanner(false);
      keys =
          Arrays.stream(file.rows)
              .map(dev.cellar.cell.KeyValue::firstOnRow)
              .toArray(dev.cellar.cell.KeyValue[]::new);
      for (dev.cellar.cell.KeyValue key : keys) {
        seek(key);
        if (!Arrays.equals(scanner.current().rowArray(), key.rowArray())) {
          throw new IllegalStateException("Cellar did not find " + key);
        }
      }
    }

    long getAndRead() throws IOException {
      seek(keys[next++ & (PICKS - 1)]);
      return ValueSample.of(scanner.current());
    }

    private void seek(dev.cellar.cell.KeyValue key) throws IOException {
      int found = scanner.seekTo(key);
      if (found == HFileScanner.BEFORE_KEY) {
        scanner.next();
      } else if (found == HFileScanner.BEFORE_FILE) {
        scanner.seekTo();
      }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      scanner.close();
      reader.close();
      allocator.close();
    }
  }

  /** HBase's reader, with no block cache, and one pread scanner for every get. */
  @State(Scope.Thread)
  public static class HBaseGet {

    /** {@code seekTo} found no cell at or before the key. */
    private static final int BEFORE_FILE = -1;

    private final ByteBuffAllocator allocator = HBaseReaders.pooledAllocator();
    private HFile.Reader reader;
    private org.apache.hadoop.hbase.io.hfile.HFileScanner scanner;
    private KeyValue[] keys;
    private int next;

    @Setup(Level.Trial)
    public void open(GetFile file) throws IOException {
      reader = HBaseReaders.open(file.file.path(), allocator);
      scanner = reader.getScanner(HBaseReaders.conf(), false, true);
      keys = Arrays.stream(file.rows).map(KeyValueUtil::createFirstOnRow).toArray(KeyValue[]::new);
      for (KeyValue key : keys) {
        seek(key);
        if (!CellUtil.matchingRows(scanner.getCell(), key)) {
          throw new IllegalStateException("HBase did not find " + key);
        }
        scanner.shipped();
      }
    }

    long getAndRead() throws IOException {
      seek(keys[next++ & (PICKS - 1)]);
      long sample = ValueSample.of(scanner.getCell());
      scanner.shipped();
      return sample;
    }

    /** Positions on the first cell at or after {@code key}, as HBase's StoreFileScanner does. */
    private void seek(Cell key) throws IOException {
      int found = scanner.seekTo(key);
      if (found > 0) {
        scanner.next();
      } else if (found == BEFORE_FILE) {
        scanner.seekTo();
      }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      scanner.close();
      reader.close();
      allocator.clean();
    }
  }
}
