package dev.cellar.bench;

import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Full-scan throughput of one HFile: Cellar's {@link HFileScanner} against HBase's, per data block
 * encoding and compression, over the same file.
 *
 * <p>The file is about 32 MiB of {@link PeCells} cells ({@code valueSize} 1000 by default, PE's
 * default) in 64 KiB blocks, written by Cellar; {@code format} is {@code ENCODING/COMPRESSION}. The
 * default formats cover every encoding uncompressed, SNAPPY and ZSTD over NONE and FAST_DIFF, and
 * GZ and LZ4 over NONE; any other pair, such as {@code -p format=ROW_INDEX_V1/ZSTD}, works. One
 * operation positions a scanner on the first cell and steps through every cell to the end, reading
 * each value's length and first and last byte ({@link ValueSample}). No block cache: every block
 * comes from the file (the OS page cache, after the first pass), has its checksums verified, is
 * decompressed into a pooled off-heap buffer (HBase: its {@code ByteBuffAllocator} pool, see {@link
 * HBaseReaders}) and is released when the scanner leaves it. Cellar reads each block with one
 * positional read; HBase's scanner is opened for stream reads ({@code pread} false), as a region
 * server's long scans are.
 *
 * <p>Scores: the primary score is scans per second; the {@code :megabytes} row is the throughput in
 * MB/s (10<sup>6</sup> bytes per second) of uncompressed cell data, the sum of the cells' KeyValue
 * serializations (JMH labels it ops/s); {@code gc.alloc.rate.norm} is heap bytes per whole scan.
 *
 * <p>Run: {@code ./cellar bench jmh BlockScanBenchmark} (22 forks of about 10 s; add {@code -p
 * format=FAST_DIFF/SNAPPY} for one format, {@code -p valueSize=100} for PE's rows with small
 * values).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BlockScanBenchmark extends BenchmarkBase {

  /** The uncompressed size of the cells written, before encoding. */
  static final long FILE_BYTES = 32L << 20;

  @Benchmark
  public long cellar(ScanFile file, CellarScan scan, Megabytes megabytes) throws IOException {
    long sample = scan.scanAll(file.file.cells());
    megabytes.megabytes += file.megabytes;
    return sample;
  }

  @Benchmark
  public long hbase(ScanFile file, HBaseScan scan, Megabytes megabytes) throws IOException {
    long sample = scan.scanAll(file.file.cells());
    megabytes.megabytes += file.megabytes;
    return sample;
  }

  /** The file both scanners read. */
  @State(Scope.Benchmark)
  public static class ScanFile {

    @Param({
      "NONE/NONE",
      "PREFIX/NONE",
      "DIFF/NONE",
      "FAST_DIFF/NONE",
      "ROW_INDEX_V1/NONE",
      "NONE/SNAPPY",
      "FAST_DIFF/SNAPPY",
      "NONE/ZSTD",
      "FAST_DIFF/ZSTD",
      "NONE/GZ",
      "NONE/LZ4"
    })
    public String format;

    @Param({"1000"})
    public int valueSize;

    PeFile file;
    double megabytes;

    @Setup(Level.Trial)
    public void write() throws IOException {
      file = PeFile.write(format, (int) (FILE_BYTES / PeCells.unencodedSize(valueSize)), valueSize);
      megabytes = file.cellBytes() / 1e6;
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
      file.close();
    }
  }

  /** Megabytes of cell data scanned in the iteration, which JMH reports per second. */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class Megabytes {

    public double megabytes;

    @Setup(Level.Iteration)
    public void reset() {
      megabytes = 0;
    }
  }

  /** Cellar's reader and a scanner reused for every pass. */
  @State(Scope.Thread)
  public static class CellarScan {

    private BufAllocator allocator;
    private HFileReader reader;
    private HFileScanner scanner;

    @Setup(Level.Trial)
    public void open(ScanFile file) throws IOException {
      allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
      reader = HFileReader.open(file.file.path(), allocator);
      scanner = reader.scanner(false);
    }

    long scanAll(int cells) throws IOException {
      long sample = 0;
      int seen = 0;
      if (scanner.seekTo()) {
        do {
          sample += ValueSample.of(scanner.current());
          seen++;
        } while (scanner.next());
      }
      return checked(sample, seen, cells);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      scanner.close();
      reader.close();
      allocator.close();
    }
  }

  /**
   * HBase's reader and a stream-read scanner reused for every pass. HBase's scanner keeps the
   * pooled blocks it has passed until its owner calls {@code shipped()}, which a region server does
   * once per scan response, of at most {@value #MAX_RESULT_SIZE} bytes of cells by default ({@code
   * hbase.client.scanner.max.result.size}); the scan does the same.
   */
  @State(Scope.Thread)
  public static class HBaseScan {

    static final int MAX_RESULT_SIZE = 2 * 1024 * 1024;

    private final ByteBuffAllocator allocator = HBaseReaders.pooledAllocator();
    private HFile.Reader reader;
    private org.apache.hadoop.hbase.io.hfile.HFileScanner scanner;
    private int cellsPerResponse;

    @Setup(Level.Trial)
    public void open(ScanFile file) throws IOException {
      reader = HBaseReaders.open(file.file.path(), allocator);
      scanner = reader.getScanner(HBaseReaders.conf(), false, false);
      cellsPerResponse =
          (int) Math.max(1, MAX_RESULT_SIZE * file.file.cells() / file.file.cellBytes());
    }

    long scanAll(int cells) throws IOException {
      long sample = 0;
      int seen = 0;
      int untilShipped = cellsPerResponse;
      if (scanner.seekTo()) {
        do {
          sample += ValueSample.of(scanner.getCell());
          seen++;
          if (--untilShipped == 0) {
            scanner.shipped();
            untilShipped = cellsPerResponse;
          }
        } while (scanner.next());
      }
      scanner.shipped();
      return checked(sample, seen, cells);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      scanner.close();
      reader.close();
      allocator.clean();
    }
  }

  private static long checked(long sample, int seen, int cells) {
    if (seen != cells) {
      throw new IllegalStateException("the scan saw " + seen + " cells of " + cells);
    }
    return sample;
  }
}
