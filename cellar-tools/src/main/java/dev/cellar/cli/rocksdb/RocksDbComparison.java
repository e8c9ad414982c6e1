package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.pe.RunMeasurement;
import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Cellar and RocksDB side by side on the same random reads, the same scans and the same batched
 * writes. Both stores get the same rows ({@link RowShape}: PE's keys or keys of another length, one
 * or more columns, values from {@link RowValues}), written once and then flushed and compacted.
 *
 * <p><b>Gets and scans.</b> For each cache scenario, both stores are opened with a block cache of
 * the same size (the ratio times the data) and checked to return the right values for a sample of
 * rows. For gets each is warmed with the same number of random gets and measured on the same random
 * gets: same threads, same row sequence per thread, same count or duration. For scans each is
 * warmed by one pass over the table and measured on the same scans ({@link ScanRanges}): each
 * thread's share of the table again and again, or ranges of a fixed number of rows from random
 * start rows. A measured phase is cut into rounds, the stores taking turns round by round on the
 * same rows, so that a change in the machine's other load falls on both; the report gives each
 * store's figures over all its rounds and the ratio of every round. Both stores read their files
 * through the operating system's page cache, which holds the whole data set on a machine with
 * enough memory: a block cache miss costs a copy from the page cache, not a disk read.
 *
 * <p><b>Writes</b> (after the gets, so that they read only the loaded rows). Each store is reopened
 * and written batches of {@code batchRows} random new rows ({@link NewRows}: numbered past the
 * loaded ones, PE values), the write-ahead log on and synced once per batch: Cellar's {@code
 * Table.put(List)} with {@code SYNC_WAL}, RocksDB's {@code WriteBatch} with {@code sync}, both an
 * {@code fdatasync}. Same threads, same rows per thread and batch, same count or duration, after a
 * warm-up of the same size on each side; then a sample of the rows written is read back.
 *
 * <p>The stores take turns in this JVM, never running at once, so heap bytes per operation belong
 * to one store each, and so do GC figures but for a collection that one store's garbage starts
 * during the other's round.
 */
final class RocksDbComparison {

  /** The cache each store is loaded and written with: small, loading and writing do not read. */
  private static final long LOAD_CACHE_BYTES = 64L << 20;

  /** The PE values the write scenario's rows take turns with. */
  private static final int DISTINCT_WRITE_VALUES = 256;

  private final ComparisonSettings settings;
  private final List<ComparedStoreType> stores;
  private final PrintStream err;

  /** A store to compare and how to open it. */
  record ComparedStoreType(String name, String subdirectory, ComparedStore.Opener opener) {}

  RocksDbComparison(ComparisonSettings settings, List<ComparedStoreType> stores, PrintStream err) {
    this.settings = settings;
    this.stores = List.copyOf(stores);
    this.err = err;
  }

  /**
   * One cache scenario's results, one per store in order: the gets' (empty without that workload)
   * and the scans' (empty without that workload).
   */
  record Scenario(
      double cacheRatio, long cacheBytes, List<ScenarioResult> results, List<ScanResult> scans) {}

  /** The write scenario's results, one per store in order. */
  record WriteScenario(int batchRows, List<WriteResult> results) {}

  /**
   * Everything measured: the cache scenarios (none without gets or scans), the write scenario (null
   * without that workload).
   */
  record Comparison(List<Scenario> scenarios, WriteScenario write) {}

  /** Loads both stores and runs the chosen workloads. */
  Comparison run() throws IOException {
    boolean temporary = settings.directory() == null;
    Path root =
        temporary ? Files.createTempDirectory("cellar-bench-rocksdb-") : settings.directory();
    try {
      RowValues values = new RowValues(settings.seed(), settings.shape());
      for (ComparedStoreType store : stores) {
        load(store, root.resolve(store.subdirectory()), values);
      }
      List<Scenario> scenarios = new ArrayList<>();
      boolean gets = settings.workloads().contains(Workload.GET);
      boolean scans = settings.workloads().contains(Workload.SCAN);
      if (gets || scans) {
        for (double ratio : settings.cacheRatios()) {
          long cacheBytes =
              CellarSide.totalCacheBytes(
                  settings.cacheTier(), (long) (ratio * settings.dataBytes()));
          List<ComparedStore> open = new ArrayList<>();
          try {
            for (ComparedStoreType type : stores) {
              open.add(type.opener().open(root.resolve(type.subdirectory()), cacheBytes));
              verify(open.getLast(), values);
            }
            List<ScenarioResult> getResults = gets ? measureGets(open) : List.of();
            List<ScanResult> scanResults = scans ? measureScans(open) : List.of();
            scenarios.add(new Scenario(ratio, cacheBytes, getResults, scanResults));
          } finally {
            closeAll(open);
          }
        }
      }
      WriteScenario write = null;
      if (settings.workloads().contains(Workload.WRITE)) {
        NewRows rows =
            NewRows.after(
                settings.shape(), settings.rows(), settings.seed() + 4, DISTINCT_WRITE_VALUES);
        List<WriteResult> results = new ArrayList<>();
        for (ComparedStoreType store : stores) {
          results.add(measureWrites(store, root.resolve(store.subdirectory()), rows));
        }
        write = new WriteScenario(settings.batchRows(), results);
      }
      return new Comparison(scenarios, write);
    } finally {
      if (temporary) {
        deleteTree(root);
      }
    }
  }

  private void load(ComparedStoreType type, Path directory, RowValues values) throws IOException {
    long start = System.nanoTime();
    try (ComparedStore store = type.opener().open(directory, LOAD_CACHE_BYTES)) {
      byte[] key = new byte[settings.shape().keyLength()];
      for (long row = 0; row < settings.rows(); row++) {
        settings.shape().key(row, key);
        store.put(key, values.of(row));
      }
      long loaded = System.nanoTime();
      store.flushAndCompact();
      err.printf(
          "%s: loaded %,d rows in %.1f s, flushed and compacted in %.1f s, %,.1f MiB on"
              + " disk%n",
          type.name(),
          settings.rows(),
          (loaded - start) / 1e9,
          (System.nanoTime() - loaded) / 1e9,
          store.diskBytes() / 1048576.0);
    }
  }

  /**
   * Warms each store with random gets, then measures the same random gets round by round, the
   * stores taking turns; returns each store's gets over all rounds, in the stores' order.
   */
  private List<ScenarioResult> measureGets(List<ComparedStore> open) throws IOException {
    int threads = settings.threads();
    RowShape shape = settings.shape();
    for (int i = 0; i < open.size(); i++) {
      ComparedStore store = open.get(i);
      if (settings.warmupOperations() > 0) {
        LoadRunner.run(
            new LoadRunner.Plan(
                stores.get(i).name() + "-warmup",
                threads,
                Math.max(1, settings.warmupOperations() / threads),
                0,
                1.0,
                settings.progressSeconds()),
            store.readers(shape, settings.rows(), settings.seed() + 1),
            err);
      }
      store.cacheSinceLastCall();
    }
    List<List<RunMeasurement>> rounds =
        measureRounds(
            open,
            "",
            (store, round) ->
                store.readers(shape, settings.rows(), settings.seed() + 2 + 7L * round));
    List<ScenarioResult> results = new ArrayList<>();
    for (int i = 0; i < open.size(); i++) {
      String name = stores.get(i).name();
      RunMeasurement m = RunMeasurement.combined(name, rounds.get(i));
      results.add(
          new ScenarioResult(
              name,
              m,
              open.get(i).cacheSinceLastCall(),
              m.operations() - m.rows(),
              rounds.get(i).stream().map(RunMeasurement::opsPerSecond).toList()));
    }
    return results;
  }

  /**
   * Warms each store with one pass over the table (each thread its share) unless the warm-up is 0,
   * then measures the same scans round by round, the stores taking turns.
   */
  private List<ScanResult> measureScans(List<ComparedStore> open) throws IOException {
    int threads = settings.threads();
    List<LongAdder> wrong = new ArrayList<>();
    for (int i = 0; i < open.size(); i++) {
      ComparedStore store = open.get(i);
      wrong.add(new LongAdder());
      if (settings.warmupOperations() > 0) {
        ScanRanges pass =
            new ScanRanges(settings.shape(), settings.rows(), threads, 0, settings.seed() + 5);
        LoadRunner.run(
            new LoadRunner.Plan(
                stores.get(i).name() + "-scan-warmup",
                threads,
                1,
                0,
                1.0,
                settings.progressSeconds()),
            store.scanners(pass, settings.cacheBlocks(), wrong.get(i)),
            err);
      }
      store.cacheSinceLastCall();
    }
    List<List<RunMeasurement>> rounds =
        measureRounds(
            open,
            "-scan",
            (store, round) -> {
              ScanRanges ranges =
                  new ScanRanges(
                      settings.shape(),
                      settings.rows(),
                      threads,
                      settings.scanRows(),
                      settings.seed() + 6 + 7L * round);
              return store.scanners(ranges, settings.cacheBlocks(), wrong.get(open.indexOf(store)));
            });
    List<ScanResult> results = new ArrayList<>();
    long rowBytes = settings.shape().rowBytes();
    for (int i = 0; i < open.size(); i++) {
      String name = stores.get(i).name();
      RunMeasurement m = RunMeasurement.combined(name + "-scan", rounds.get(i));
      results.add(
          new ScanResult(
              name,
              m,
              rowBytes,
              open.get(i).cacheSinceLastCall(),
              wrong.get(i).sum(),
              rounds.get(i).stream()
                  .map(round -> round.seconds() == 0 ? 0 : round.rows() / round.seconds())
                  .toList()));
    }
    return results;
  }

  /** The workers of one store for one round. */
  private interface RoundWorkers {
    Worker.Factory of(ComparedStore store, int round) throws IOException;
  }

  /**
   * Runs {@code --rounds} measured rounds, each store in turn; the measurements per store. A full
   * collection comes first: both stores share this JVM, and a collection the load or the warm-ups
   * left due (G1's concurrent cycle after the caches filled the old generation) would otherwise
   * take a core from whichever store's round it lands in. Collections the rounds themselves cause
   * are counted.
   */
  private List<List<RunMeasurement>> measureRounds(
      List<ComparedStore> open, String suffix, RoundWorkers workers) throws IOException {
    System.gc();
    List<List<RunMeasurement>> measured = new ArrayList<>();
    for (int i = 0; i < open.size(); i++) {
      measured.add(new ArrayList<>());
    }
    for (int round = 0; round < settings.rounds(); round++) {
      for (int i = 0; i < open.size(); i++) {
        String name = stores.get(i).name() + suffix;
        measured.get(i).add(LoadRunner.run(roundPlan(name), workers.of(open.get(i), round), err));
      }
    }
    return measured;
  }

  /** A measured round: {@code --ops} or {@code --seconds} split over the rounds and threads. */
  private LoadRunner.Plan roundPlan(String name) {
    long perThread = settings.operations() / settings.rounds() / settings.threads();
    long nanos =
        settings.operations() > 0 ? 0 : settings.seconds() * 1_000_000_000L / settings.rounds();
    return new LoadRunner.Plan(
        name, settings.threads(), Math.max(1, perThread), nanos, 1.0, settings.progressSeconds());
  }

  /** A measured write phase: {@code --ops} split over the threads, or {@code --seconds}. */
  private LoadRunner.Plan measuredPlan(String name) {
    long perThread = settings.operations() / settings.threads();
    long nanos = settings.operations() > 0 ? 0 : settings.seconds() * 1_000_000_000L;
    return new LoadRunner.Plan(
        name, settings.threads(), Math.max(1, perThread), nanos, 1.0, settings.progressSeconds());
  }

  private static void closeAll(List<ComparedStore> open) throws IOException {
    IOException failure = null;
    for (ComparedStore store : open) {
      try {
        store.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private WriteResult measureWrites(ComparedStoreType type, Path directory, NewRows rows)
      throws IOException {
    try (ComparedStore store = type.opener().open(directory, LOAD_CACHE_BYTES)) {
      int threads = settings.threads();
      int batchRows = settings.batchRows();
      long warmupBatches = settings.warmupOperations() / batchRows / threads;
      if (warmupBatches > 0) {
        NewRows warmup =
            new NewRows(
                rows.shape(), rows.firstRow(), rows.count(), rows.seed() + 1, rows.values());
        LoadRunner.run(
            new LoadRunner.Plan(
                type.name() + "-write-warmup",
                threads,
                warmupBatches,
                0,
                1.0,
                settings.progressSeconds()),
            store.batchWriters(warmup, batchRows),
            err);
      }
      RunMeasurement m =
          LoadRunner.run(
              measuredPlan(type.name() + "-write"), store.batchWriters(rows, batchRows), err);
      return new WriteResult(
          type.name(),
          m,
          verifyWritten(store, rows, m.perThread().getFirst().operations() * batchRows));
    }
  }

  /**
   * Reads back the first rows thread 0 wrote (up to {@code verifyRows}, at least one batch) and
   * returns how many have no value or a wrong one.
   */
  private long verifyWritten(ComparedStore store, NewRows rows, long written) throws IOException {
    NewRows.Cursor cursor = rows.cursor(0);
    long checks = Math.min(written, Math.max(settings.verifyRows(), settings.batchRows()));
    long wrong = 0;
    for (long i = 0; i < checks; i++) {
      byte[] key = cursor.nextKey();
      if (!Arrays.deepEquals(cursor.values(), store.get(settings.shape(), key))) {
        wrong++;
      }
    }
    err.printf("%s: values of %,d written rows checked%n", store.name(), checks);
    return wrong;
  }

  /** Checks the first, the last and {@code verifyRows} random rows against their values. */
  private void verify(ComparedStore store, RowValues values) throws IOException {
    SplittableRandom random = new SplittableRandom(settings.seed() + 3);
    long[] rows = new long[settings.verifyRows() + 2];
    rows[0] = 0;
    rows[1] = settings.rows() - 1;
    for (int i = 2; i < rows.length; i++) {
      rows[i] = random.nextLong(settings.rows());
    }
    RowShape shape = settings.shape();
    for (long row : rows) {
      byte[][] expected = values.of(row);
      byte[][] found = store.get(shape, shape.key(row));
      for (int column = 0; column < expected.length; column++) {
        byte[] value = found == null || column >= found.length ? null : found[column];
        if (!Arrays.equals(expected[column], value)) {
          throw new IllegalStateException(
              store.name()
                  + " returned a wrong value for row "
                  + row
                  + " column "
                  + column
                  + ": expected "
                  + expected[column].length
                  + " bytes starting "
                  + preview(expected[column])
                  + ", found "
                  + (value == null ? "none" : value.length + " bytes starting " + preview(value)));
        }
      }
    }
    err.printf("%s: values of %,d rows checked%n", store.name(), rows.length);
  }

  private static String preview(byte[] value) {
    return new String(value, 0, Math.min(16, value.length), StandardCharsets.US_ASCII);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
