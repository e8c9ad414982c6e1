package dev.cellar.bench;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Durability;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.RowReader;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
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
 * cellar.metrics.enabled} true and false in the same run. The Get is counted every time and timed
 * one time in eight (see {@link EngineMetrics}); {@link #recordOneGet} is that recording alone.
 * On a shared, busy machine the two settings, measured minutes apart, differ by more than the
 * load changes; {@link MetricsOverheadProbe} alternates them in one process instead.
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
      cellar = Cellar.open(dir.resolve("db"), CellarConfig.defaults()
          .with("hfile.block.cache.memory.size", Long.toString(4L * ROWS * 1026))
          .with("cellar.metrics.enabled", Boolean.toString(metrics)));
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("info")));
      table = cellar.table("t");
      keys = new byte[ROWS][];
      Random random = new Random(7);
      for (int i = 0; i < ROWS; i++) {
        keys[i] = PeCells.row(i);
        table.put(new Put(keys[i]).addColumn(FAMILY, QUALIFIER, PeCells.value(random, 1000))
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

  @Benchmark
  public int cachedGet(Store store, Reader reader) throws IOException {
    return reader.reader.getView(reader.get.setRow(store.keys[reader.random.next()]))
        .copyValue(FAMILY, QUALIFIER, reader.value, 0);
  }
}
