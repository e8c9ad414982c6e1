package dev.cellar.bench;

import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.Encodings;
import dev.cellar.schema.DataBlockEncoding;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
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
 * A random seek inside one data block, then a read of the value found, per data block encoding:
 * Cellar's {@link BlockSeeker} against HBase's {@code EncodedSeeker} over the same bytes.
 *
 * <p>The block is the only data block of a small HFile written by Cellar, in the given encoding,
 * uncompressed: as many {@link PeCells} cells as fit in 64 KiB with a ROW_INDEX_V1 row index, the
 * same cells for every encoding, of one of two shapes: {@code PE} (PerformanceEvaluation's 26-byte
 * rows and 1000-byte values: 62 cells) or {@code SMALL} (16-byte rows and 100-byte values: 448
 * cells). Cellar's reader loads it once into a pooled off-heap buffer; both seekers then read that
 * same memory, HBase's through a {@code SingleByteBuff} over a {@code ByteBuffer} view of it that
 * starts after the encoding id, as HBase's scanner hands blocks to its seeker.
 *
 * <p>One operation seeks to the exact key of a random cell of the block and reads that cell's value
 * length and first and last byte ({@link ValueSample}). Every seek starts from the block's first
 * cell ({@code rewind()} then {@code seekToKeyInBlock(key, false)}): HBase's seekers only move
 * forward, and its scanner rewinds them for every {@code seekTo}. Cellar's seekers can also
 * continue forward from the current cell, which this benchmark does not use. For ROW_INDEX_V1 both
 * seekers binary-search the block's row index instead of walking from the start.
 *
 * <p>Cellar is measured three times: {@code cellar} with the block's seek index, as every block a
 * cache shares carries one (Cellar's scanner builds it on the third seek into a block object),
 * {@code cellarSparse} with the sparse index a file keeps for a block its cache leaves out (from
 * the block's second seek on), and {@code cellarUnindexed} without, as a block is searched at its
 * first seek. ROW_INDEX_V1 blocks have no seek index: the Cellar scores are the same search there.
 *
 * <p>NONE: HBase has no seeker for unencoded blocks, whose seek is part of its file scanner, so
 * HBase's side is its {@code HFileScanner.seekTo(key)} over the same one-block file, read into
 * HBase's pooled off-heap buffers, with the block already current: the scanner keeps the block,
 * looks the key up in the one-entry root index, rewinds and seeks in the block from its start.
 * Cellar's side stays its bare seeker, so HBase's NONE score also includes that index lookup.
 *
 * <p>Scores are nanoseconds per seek; {@code gc.alloc.rate.norm} is heap bytes per seek. Cellar's
 * cells are flyweights over the block; HBase builds a cell object per {@code getCell()} (for the
 * delta encodings with a heap copy of the key).
 *
 * <p>Run: {@code ./cellar bench jmh BlockSeekBenchmark} (add {@code -p encoding=FAST_DIFF -p
 * shape=SMALL} for one case).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BlockSeekBenchmark extends BenchmarkBase {

  /** The size every encoding's block stays under. */
  static final int BLOCK_BYTES = 64 * 1024;

  /** What ROW_INDEX_V1 adds to a block per row: the row's offset in its row index. */
  private static final int ROW_INDEX_ENTRY = Integer.BYTES;

  /** How many random seek targets are drawn; both sides cycle through the same ones. */
  static final int PICKS = 4096;

  private static final long SEED = 42;

  @Benchmark
  public long cellar(IndexedCellarSeeker seeker) {
    return seeker.seekAndRead();
  }

  @Benchmark
  public long cellarUnindexed(CellarSeeker seeker) {
    return seeker.seekAndRead();
  }

  @Benchmark
  public long cellarSparse(SparselyIndexedCellarSeeker seeker) {
    return seeker.seekAndRead();
  }

  @Benchmark
  public long hbase(HBaseSeeker seeker) throws IOException {
    return seeker.seekAndRead();
  }

  /** The one-block file, and the rows both sides seek to, in order. */
  @State(Scope.Benchmark)
  public static class BlockFile {

    @Param({"NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"})
    public String encoding;

    /** {@code PE}: 26-byte rows, 1000-byte values; {@code SMALL}: 16-byte rows, 100-byte values. */
    @Param({"PE", "SMALL"})
    public String shape;

    PeFile file;
    int rowLength;
    int[] picks;

    @Setup(Level.Trial)
    public void write() throws IOException {
      boolean small = shape.equals("SMALL");
      rowLength = small ? 16 : PeCells.ROW_LENGTH;
      int valueSize = small ? 100 : 1000;
      int cells = BLOCK_BYTES / (PeCells.unencodedSize(valueSize, rowLength) + ROW_INDEX_ENTRY);
      file = PeFile.write(encoding + "/NONE", cells, valueSize, rowLength);
      picks = new Random(SEED).ints(PICKS, 0, file.cells()).toArray();
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
      file.close();
    }
  }

  /** Cellar's seeker for the file's encoding, set on the loaded block, without a seek index. */
  @State(Scope.Thread)
  public static class CellarSeeker {

    private OneBlockFile block;
    private BlockSeeker seeker;
    private dev.cellar.cell.Cell[] keys;
    private int[] picks;
    private int next;

    @Setup(Level.Trial)
    public void open(BlockFile data) throws IOException {
      block = new OneBlockFile(data.file);
      seeker = Encodings.newSeeker(block.reader().encoding(), block.reader().encodingContext());
      seeker.setBlock(block.payload());
      index(seeker);
      keys = new dev.cellar.cell.Cell[data.file.cells()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = PeCells.key(i, data.rowLength);
      }
      picks = data.picks;
      for (dev.cellar.cell.Cell key : keys) {
        seeker.rewind();
        if (seeker.seekToKeyInBlock(key, false) != BlockSeeker.EXACT) {
          throw new IllegalStateException("Cellar's seeker did not find " + key);
        }
      }
    }

    /** Prepares the seeker before the seeks: nothing here. */
    void index(BlockSeeker blockSeeker) {}

    long seekAndRead() {
      dev.cellar.cell.Cell key = keys[picks[next++ & (PICKS - 1)]];
      seeker.rewind();
      seeker.seekToKeyInBlock(key, false);
      return ValueSample.of(seeker.current());
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      block.close();
    }
  }

  /** Cellar's seeker with the block's seek index, as a cached block has it. */
  @State(Scope.Thread)
  public static class IndexedCellarSeeker extends CellarSeeker {

    @Override
    void index(BlockSeeker blockSeeker) {
      blockSeeker.indexBlock();
    }
  }

  /** Cellar's seeker with the sparse index a file keeps for a block its cache leaves out. */
  @State(Scope.Thread)
  public static class SparselyIndexedCellarSeeker extends CellarSeeker {

    @Override
    void index(BlockSeeker blockSeeker) {
      blockSeeker.indexBlockSparsely();
    }
  }

  /**
   * HBase's seeker for the file's encoding over the block Cellar loaded, or for NONE HBase's file
   * scanner positioned on the block.
   */
  @State(Scope.Thread)
  public static class HBaseSeeker {

    /**
     * A seek returning the cell found; one implementation per fork, so the call stays monomorphic.
     */
    private interface Seek {
      Cell seek(KeyValue key) throws IOException;
    }

    private final ByteBuffAllocator allocator = HBaseReaders.pooledAllocator();
    private OneBlockFile block;
    private HFile.Reader reader;
    private HFileScanner scanner;
    private Seek seek;
    private KeyValue[] keys;
    private int[] picks;
    private int next;

    @Setup(Level.Trial)
    public void open(BlockFile data) throws IOException {
      reader = HBaseReaders.open(data.file.path(), allocator);
      seek =
          DataBlockEncoding.fromName(data.encoding).isEncoded() ? encodedSeek(data) : scannerSeek();
      keys = new KeyValue[data.file.cells()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] =
            new KeyValue(
                PeCells.row(i, data.rowLength),
                PeCells.FAMILY,
                PeCells.QUALIFIER,
                PeCells.TIMESTAMP,
                KeyValue.Type.Put);
      }
      picks = data.picks;
      for (KeyValue key : keys) {
        if (!CellUtil.matchingRows(seek.seek(key), key)) {
          throw new IllegalStateException("HBase did not find " + key);
        }
      }
    }

    private Seek encodedSeek(BlockFile data) throws IOException {
      block = new OneBlockFile(data.file);
      DataBlockEncoder encoder = reader.getDataBlockEncoding().getEncoder();
      DataBlockEncoder.EncodedSeeker seeker =
          encoder.createSeeker(
              encoder.newDataBlockDecodingContext(HBaseReaders.conf(), reader.getFileContext()));
      seeker.setCurrentBuffer(
          new SingleByteBuff(
              block.payload().segment().asSlice(DataBlockEncoding.ID_SIZE).asByteBuffer()));
      return key -> {
        seeker.rewind();
        seeker.seekToKeyInBlock(key, false);
        return seeker.getCell();
      };
    }

    private Seek scannerSeek() throws IOException {
      scanner = reader.getScanner(HBaseReaders.conf(), false, true);
      if (!scanner.seekTo()) {
        throw new IllegalStateException("HBase's scanner found no cell in " + reader.getPath());
      }
      return key -> {
        scanner.seekTo(key);
        return scanner.getCell();
      };
    }

    long seekAndRead() throws IOException {
      return ValueSample.of(seek.seek(keys[picks[next++ & (PICKS - 1)]]));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      if (scanner != null) {
        scanner.close();
      }
      reader.close();
      if (block != null) {
        block.close();
      }
      allocator.clean();
    }
  }
}
