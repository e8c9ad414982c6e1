package dev.cellar.cli.pe;

import dev.cellar.Table;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * HBase's PerformanceEvaluation over an embedded Cellar, or a server through Cellar's client
 * ({@code --connect}): opens the database (connects), announces the run, writes the rows first when
 * asked ({@code --load}), runs the measured phase with one {@link Worker} per thread and returns
 * what was measured, one {@link PeResult} per phase.
 *
 * <p>A write phase is followed by a flush (timed on its own, outside the phase) and, with {@code
 * --compact}, a major compaction, so that a read phase in the same run reads files through the
 * block cache as a later run would. A read phase needs the table to hold rows; otherwise it stops
 * with a {@link PeException} saying how to write them.
 */
public final class PerformanceEvaluation {

  private PerformanceEvaluation() {}

  /** Runs {@code options} in the database {@code setup} describes; notes go to {@code err}. */
  public static List<PeResult> run(PeOptions options, PeSetup setup, PrintStream err)
      throws IOException {
    List<PeResult> results = new ArrayList<>();
    try (PeTarget database = open(setup, err)) {
      err.printf(
          "cellar pe: %s, %d thread(s) x %,d rows, seed %d%n",
          options.workload().command(), options.threads(), options.rowsPerThread(), options.seed());
      err.println(
          "cellar pe: database in "
              + database.describe()
              + (database instanceof PeDatabase embedded && embedded.deletedOnClose()
                  ? " (temporary, deleted at the end; --keep keeps it)"
                  : ""));
      if (!options.workload().writes() && setup.load()) {
        PeOptions load = options.withWorkload(PeWorkload.SEQUENTIAL_WRITE);
        results.add(write(database, load, setup, err));
      }
      if (options.workload().writes()) {
        results.add(write(database, options, setup, err));
      } else {
        Table table = database.existingTable(options);
        results.add(phase(database, table, options, err));
      }
    }
    return results;
  }

  private static PeTarget open(PeSetup setup, PrintStream err) throws IOException {
    return setup.connect() != null
        ? PeServer.connect(setup.connect(), setup.config(), err)
        : PeDatabase.open(setup.directory(), setup.keep(), setup.config());
  }

  private static PeResult write(
      PeTarget database, PeOptions options, PeSetup setup, PrintStream err) throws IOException {
    Table table = database.createTableIfMissing(options);
    PeResult result = phase(database, table, options, err);
    long start = System.nanoTime();
    database.admin().flush(options.table());
    long flushMillis = (System.nanoTime() - start) / 1_000_000;
    if (setup.compact()) {
      err.println("cellar pe: major compaction of " + options.table());
      database.admin().majorCompact(options.table());
    }
    return new PeResult(
        result.options(),
        result.measurement(),
        result.cache(),
        result.heapAllocationRatio(),
        flushMillis,
        result.server());
  }

  private static PeResult phase(PeTarget database, Table table, PeOptions options, PrintStream err)
      throws IOException {
    CacheFigures cacheBefore = database.cacheFigures();
    database.heapAllocationRatioSinceLastCall();
    LoadRunner.Plan plan =
        new LoadRunner.Plan(
            options.workload().command(),
            options.threads(),
            options.rowsPerThread(),
            0,
            options.sampleRate(),
            options.progressSeconds());
    RunMeasurement measurement = LoadRunner.run(plan, workers(table, options), err);
    double heapRatio = database.heapAllocationRatioSinceLastCall();
    CacheFigures cache = database.cacheFigures().since(cacheBefore);
    return new PeResult(options, measurement, cache, heapRatio, -1, database.server());
  }

  private static Worker.Factory workers(Table table, PeOptions options) {
    PeColumns columns = new PeColumns(options.families(), options.columns());
    return thread ->
        switch (options.workload()) {
          case SEQUENTIAL_WRITE -> new PeWrites(table, options, columns, thread, true);
          case RANDOM_WRITE -> new PeWrites(table, options, columns, thread, false);
          case SEQUENTIAL_READ -> new PeGets(table, options, columns, thread, true);
          case RANDOM_READ -> new PeGets(table, options, columns, thread, false);
          case SCAN -> new PeScan(table, options, columns, thread);
          case SCAN_RANGE_10,
              SCAN_RANGE_100,
              SCAN_RANGE_1000,
              SCAN_RANGE_10000,
              FILTER_SCAN,
              RANDOM_SEEK_SCAN ->
              new PeRangeScans(table, options, columns, thread);
        };
  }
}
