package dev.cellar.cli.experiments.showdown;

import dev.cellar.Database;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.GcFigures;
import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.pe.RunMeasurement;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * What one deploy runs and measures, wherever its table is: an embedded database in a deploy's own
 * JVM ({@link ShowdownChild}) or a {@code cellar serve} of the deploy's reached through Cellar's
 * client ({@link ServedDeploy}). Given the request (the rows, the {@link Phase}s, the timings), it
 * warms the block cache as the showdown's seed did (a full scan caching its blocks when the data
 * fits, else randomRead sampled at 0.1 for one run's length), runs each phase the requested number
 * of times and returns what the last run of each measured, each key prefixed with its phase: the
 * seed kept its last of three runs. The cache and GC figures come from the {@link Engine}, since
 * the engine may be in another process than the clients. A request with {@code ycsbRecords} also
 * warms the YCSB table ({@link YcsbRecords}). Stateless.
 *
 * <p><b>JIT warm-up.</b> Before a workload's first phase, the workload runs untimed for one run's
 * length (at least a second), unless the cache's warming already ran it. A fresh JVM compiles a
 * workload's read path during its first run, so a workload timed once ({@code runs} 1, or the short
 * runs of a smoke run) measured its compilation: on the shared 2-core machine, 1 s runs of the
 * filtered range scans at {@code --scale 0.05} ran 33 and 53 times slower in the off-heap deploy
 * than in the LRU one, every lookup a hit in both, and within 2% of each other once each had run 2
 * s before.
 *
 * <p><b>Load.</b> Each phase's result has the machine's one-minute load average at the end of its
 * last run: the deploys run one after the other, so one measured while other work loads the machine
 * comes out slower without a fault of its own.
 */
public final class DeployRun {

  /** The engine's block cache counters and GC totals, read before and after each run. */
  public interface Engine {

    CacheFigures cache() throws IOException;

    GcFigures gc() throws IOException;
  }

  /** The shortest untimed run that lets the JIT compile a workload's read path. */
  private static final long MIN_JIT_WARM_NANOS = 1_000_000_000L;

  private DeployRun() {}

  /** Runs {@code request}'s phases on {@code table}; progress lines go to {@code progress}. */
  public static Properties run(
      Properties request, Database database, Engine engine, PrintStream progress)
      throws IOException {
    Table table = database.table(request.getProperty("table"));
    long rows = Long.parseLong(request.getProperty("rows"));
    long records = Long.parseLong(request.getProperty("ycsbRecords", "0"));
    long durationNanos = Long.parseLong(request.getProperty("durationMillis")) * 1_000_000;
    int runs = Integer.parseInt(request.getProperty("runs"));
    double sampleRate = Double.parseDouble(request.getProperty("sampleRate"));
    long seed = Long.parseLong(request.getProperty("seed"));
    List<Phase> phases = Phase.parseAll(request.getProperty("phases"));
    Set<ReadWorkload> compiled = EnumSet.noneOf(ReadWorkload.class);
    if (Boolean.parseBoolean(request.getProperty("warmByScan"))) {
      warmByScan(table);
      if (records > 0) {
        warmByScan(database.table(YcsbRecords.TABLE));
      }
    } else {
      int clients = phases.getFirst().threads();
      LoadRunner.run(
          new LoadRunner.Plan("warm", clients, 0, durationNanos, 0.1, 0),
          thread -> new RowGets(table, rows, ~seed - thread),
          progress);
      compiled.add(ReadWorkload.RANDOM_READ);
    }
    Properties result = new Properties();
    for (Phase phase : phases) {
      if (compiled.add(phase.workload())) {
        LoadRunner.run(
            new LoadRunner.Plan(
                phase.key() + "-jit",
                phase.threads(),
                0,
                Math.max(durationNanos, MIN_JIT_WARM_NANOS),
                sampleRate,
                0),
            phase.workload().workers(database, table, rows, records, phase.threads(), ~seed),
            progress);
      }
      RunMeasurement last = null;
      CacheFigures cache = null;
      GcFigures gc = null;
      double load = Double.NaN;
      for (int run = 0; run < runs; run++) {
        CacheFigures cacheBefore = engine.cache();
        GcFigures gcBefore = engine.gc();
        long runSeed = seed + (long) run * phase.threads();
        last =
            LoadRunner.run(
                new LoadRunner.Plan(phase.key(), phase.threads(), 0, durationNanos, sampleRate, 0),
                phase.workload().workers(database, table, rows, records, phase.threads(), runSeed),
                progress);
        load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        gc = engine.gc().since(gcBefore);
        cache = engine.cache().since(cacheBefore);
      }
      put(result, phase.key() + ".", last, cache, gc);
      result.setProperty(phase.key() + ".loadAverage", Double.toString(load));
      progress.printf(
          "%s: %.0f ops/s, p99 %.0f us, GC %d ms, hit ratios %s, load %.1f%n",
          phase.key(),
          last.opsPerSecond(),
          last.latencyMicros(99),
          gc.totalMillis(),
          TierHitRatios.of(cache).describe(),
          load);
    }
    return result;
  }

  private static void warmByScan(Table table) throws IOException {
    try (ResultScanner scanner = table.scanner(new Scan().setCacheBlocks(true))) {
      while (true) {
        try (Result result = scanner.next()) {
          if (result == null) {
            return;
          }
        }
      }
    }
  }

  private static void put(
      Properties result, String prefix, RunMeasurement m, CacheFigures cache, GcFigures gc) {
    result.setProperty(prefix + "operations", Long.toString(m.operations()));
    result.setProperty(prefix + "rows", Long.toString(m.rows()));
    result.setProperty(prefix + "opsPerSecond", Double.toString(m.opsPerSecond()));
    result.setProperty(prefix + "p50Micros", Double.toString(m.latencyMicros(50)));
    result.setProperty(prefix + "p99Micros", Double.toString(m.latencyMicros(99)));
    result.setProperty(prefix + "p999Micros", Double.toString(m.latencyMicros(99.9)));
    result.setProperty(prefix + "timedOperations", Long.toString(m.latency().getTotalCount()));
    result.setProperty(prefix + "gcMillis", Long.toString(gc.totalMillis()));
    result.setProperty(prefix + "gcCollections", Long.toString(gc.totalCount()));
    result.setProperty(
        prefix + "heapBytesPerOperation", Double.toString(m.allocatedBytesPerOperation()));
    StringBuilder tiers = new StringBuilder();
    for (CacheFigures.Tier tier : cache.tiers()) {
      tiers.append(tiers.isEmpty() ? "" : ",").append(tier.name());
      result.setProperty(
          prefix + "tier." + tier.name() + ".hitRatio", Double.toString(tier.hitRatio()));
      result.setProperty(prefix + "tier." + tier.name() + ".bytes", Long.toString(tier.bytes()));
    }
    result.setProperty(prefix + "tiers", tiers.toString());
  }
}
