package dev.cellar.bench;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.RowReader;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.memory.Buf;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * What recording the operation metrics costs on the hit path: the cached point Get of {@link
 * CachedGetBenchmark} (RowReader, reused Get, L1 holding every block) with {@code
 * cellar.metrics.enabled} and the block cache's miss-ratio curve ({@code
 * cellar.blockcache.curve.enabled}, sampling its default 1% of the blocks) both on, and both off,
 * in the same run. The Get is counted every time and timed one time in eight (see {@link
 * EngineMetrics}); {@link #recordOneGet} is that recording alone, and {@link
 * #showOneLookupToTheCurve} what the curve adds to each data-block lookup. On a shared, busy
 * machine the two settings, measured minutes apart, differ by more than the load changes; {@link
 * MetricsOverheadProbe} alternates them in one process instead.
 *
 * <p>Run: {@code ./cellar bench jmh MetricsOverheadBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MetricsOverheadBenchmark extends BenchmarkBase {

  static final int ROWS = 50_000;
  private static final byte[] FAMILY = PeCells.FAMILY;
  private static final byte[] QUALIFIER = PeCells.QUALIFIER;

  /** The database, loaded, compacted and read once, with metrics on or off. */
  @State(Scope.Benchmark)
  public static class Store {
    @Param({"true", "false"})
    public boolean metrics;

    TempDir dir;
    Cellar cellar;
    Table table;
    byte[][] keys;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      dir = new TempDir("cellar-metrics-overhead-");
      cellar =
          Cellar.open(
              dir.resolve("db"),
              CellarConfig.defaults()
                  .with("hfile.block.cache.memory.size", Long.toString(4L * ROWS * 1026))
                  .with("cellar.metrics.enabled", Boolean.toString(metrics))
                  .with(MissRatioCurveTracker.ENABLED_KEY, Boolean.toString(metrics)));
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("info")));
      table = cellar.table("t");
      keys = new byte[ROWS][];
      Random random = new Random(7);
      for (int i = 0; i < ROWS; i++) {
        keys[i] = PeCells.row(i);
        table.put(
            new Put(keys[i])
                .addColumn(FAMILY, QUALIFIER, PeCells.value(random, 1000))
                .setDurability(Durability.SKIP_WAL));
      }
      cellar.admin().flush("t");
      cellar.admin().majorCompact("t");
      try (RowReader reader = table.rowReader()) {
        Get get = new Get(keys[0]).addColumn(FAMILY, QUALIFIER);
        for (byte[] key : keys) {
          reader.getView(get.setRow(key));
        }
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      cellar.close();
      dir.close();
    }
  }

  /** One thread's reader, reused Get and value buffer. */
  @State(Scope.Thread)
  public static class Reader {
    RowReader reader;
    Get get;
    byte[] value = new byte[1000];
    RandomKeys random;

    @Setup(Level.Trial)
    public void setUp(Store store) {
      reader = store.table.rowReader();
      get = new Get(store.keys[0]).addColumn(FAMILY, QUALIFIER);
      random = new RandomKeys(11, ROWS);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      reader.close();
    }
  }

  /** The metrics alone, without a database: what {@code Region.get} adds to each Get. */
  @State(Scope.Benchmark)
  public static class Recorder {
    final EngineMetrics metrics = new EngineMetrics();
  }

  /** One Get's recording: the sampling decision, the count and, one time in 8, the timing. */
  @Benchmark
  public void recordOneGet(Recorder recorder) {
    EngineMetrics metrics = recorder.metrics;
    long start = metrics.start(Operation.GET);
    metrics.recordSince(Operation.GET, start);
    metrics.increment(Counter.READ_REQUESTS);
  }

  /**
   * The curve alone: a tracker at its default rate (1%) and bound, shown lookups of about 65,000
   * distinct blocks of 4 KiB, as {@code CachingBlockLoader} shows it each data-block lookup.
   */
  @State(Scope.Thread)
  public static class Curve {
    final MissRatioCurveTracker tracker =
        new MissRatioCurveTracker(
            1L << 30,
            MissRatioCurveTracker.DEFAULT_RATE,
            MissRatioCurveTracker.DEFAULT_MAX_BLOCKS,
            null);
    final Cacheable block = new SizedBlock(4_300);
    long offset;
  }

  /** One data-block lookup as the curve sees it: a hash and a compare, or (1%) a sampled access. */
  @Benchmark
  public void showOneLookupToTheCurve(Curve curve) {
    curve.offset = (curve.offset + 4_137) & ((1L << 28) - 1);
    curve.tracker.access(1, curve.offset, curve.block);
  }

  /** A block that only has a size: all the tracker reads of a block. */
  private record SizedBlock(long heapSize) implements Cacheable {
    @Override
    public Buf buf() {
      throw new UnsupportedOperationException("a size only");
    }

    @Override
    public BlockCategory category() {
      return BlockCategory.DATA;
    }

    @Override
    public Cacheable withBuf(Buf buf) {
      throw new UnsupportedOperationException("a size only");
    }

    @Override
    public CacheableDeserializer deserializer() {
      throw new UnsupportedOperationException("a size only");
    }

    @Override
    public void writeMetadata(Buf dst, int index) {
      throw new UnsupportedOperationException("a size only");
    }
  }

  @Benchmark
  public int cachedGet(Store store, Reader reader) throws IOException {
    return reader
        .reader
        .getView(reader.get.setRow(store.keys[reader.random.next()]))
        .copyValue(FAMILY, QUALIFIER, reader.value, 0);
  }
}
