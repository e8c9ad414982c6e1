package dev.cellar.cli.experiments.showdown;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.pe.RunMeasurement;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The measuring process of the showdown and off-heap experiments: one deploy in its own JVM,
 * started by {@link ChildJvm} with the deploy's heap and direct memory. Reads its request (a
 * properties file: the database, the rows, the {@link Phase}s, the timings and every {@code
 * config.}-prefixed configuration key), opens the loaded database with the deploy's
 * configuration, warms the block cache as the showdown's seed did (a full scan caching its blocks
 * when the data fits, else randomRead sampled at 0.1 for one run's length), runs each phase the
 * requested number of times and writes what the last run of each measured as a properties file,
 * each key prefixed with its phase: the seed kept its last of three runs.
 *
 * <p>Exit codes: 0 done, 1 failed (one line on stderr says why).
 */
public final class ShowdownChild {

  public static final String CONFIG_PREFIX = "config.";

  private ShowdownChild() {}

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: ShowdownChild <request.properties> <result.properties>");
      System.exit(1);
    }
    try {
      run(Path.of(args[0]), Path.of(args[1]));
    } catch (IOException | RuntimeException e) {
      System.err.println("cellar bench, deploy JVM: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(Path requestFile, Path resultFile) throws IOException {
    Properties request = new Properties();
    try (Reader in = Files.newBufferedReader(requestFile)) {
      request.load(in);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (String key : request.stringPropertyNames()) {
      if (key.startsWith(CONFIG_PREFIX)) {
        settings.put(key.substring(CONFIG_PREFIX.length()), request.getProperty(key));
      }
    }
    Path database = Path.of(request.getProperty("database"));
    long rows = Long.parseLong(request.getProperty("rows"));
    long durationNanos = Long.parseLong(request.getProperty("durationMillis")) * 1_000_000;
    int runs = Integer.parseInt(request.getProperty("runs"));
    double sampleRate = Double.parseDouble(request.getProperty("sampleRate"));
    boolean scanWarm = Boolean.parseBoolean(request.getProperty("warmByScan"));
    long seed = Long.parseLong(request.getProperty("seed"));
    List<Phase> phases = Phase.parseAll(request.getProperty("phases"));
    Properties result = new Properties();
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults().withAll(settings))) {
      Table table = cellar.table(request.getProperty("table"));
      if (scanWarm) {
        warmByScan(table);
      } else {
        int clients = phases.getFirst().threads();
        LoadRunner.run(new LoadRunner.Plan("warm", clients, 0, durationNanos, 0.1, 0),
            thread -> new RowGets(table, rows, ~seed - thread), System.err);
      }
      for (Phase phase : phases) {
        RunMeasurement last = null;
        CacheFigures cache = null;
        for (int run = 0; run < runs; run++) {
          CacheFigures before = CacheFigures.of(cellar.blockCache());
          long runSeed = seed + (long) run * phase.threads();
          last = LoadRunner.run(new LoadRunner.Plan(phase.key(), phase.threads(), 0,
              durationNanos, sampleRate, 0), thread -> phase.workload().worker(table, rows,
                  runSeed + thread), System.err);
          cache = CacheFigures.of(cellar.blockCache()).since(before);
        }
        put(result, phase.key() + ".", last, cache);
        System.err.printf("%s: %.0f ops/s, p99 %.0f us, GC %d ms%n", phase.key(),
            last.opsPerSecond(), last.latencyMicros(99), last.gc().totalMillis());
      }
    }
    try (Writer out = Files.newBufferedWriter(resultFile)) {
      result.store(out, "cellar bench: one deploy's last run of each phase");
    }
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

  private static void put(Properties result, String prefix, RunMeasurement m,
      CacheFigures cache) {
    result.setProperty(prefix + "operations", Long.toString(m.operations()));
    result.setProperty(prefix + "rows", Long.toString(m.rows()));
    result.setProperty(prefix + "opsPerSecond", Double.toString(m.opsPerSecond()));
    result.setProperty(prefix + "p50Micros", Double.toString(m.latencyMicros(50)));
    result.setProperty(prefix + "p99Micros", Double.toString(m.latencyMicros(99)));
    result.setProperty(prefix + "p999Micros", Double.toString(m.latencyMicros(99.9)));
    result.setProperty(prefix + "timedOperations", Long.toString(m.latency().getTotalCount()));
    result.setProperty(prefix + "gcMillis", Long.toString(m.gc().totalMillis()));
    result.setProperty(prefix + "gcCollections", Long.toString(m.gc().totalCount()));
    result.setProperty(prefix + "heapBytesPerOperation",
        Double.toString(m.allocatedBytesPerOperation()));
    StringBuilder tiers = new StringBuilder();
    for (CacheFigures.Tier tier : cache.tiers()) {
      tiers.append(tiers.isEmpty() ? "" : ",").append(tier.name());
      result.setProperty(prefix + "tier." + tier.name() + ".hitRatio",
          Double.toString(tier.hitRatio()));
      result.setProperty(prefix + "tier." + tier.name() + ".bytes", Long.toString(tier.bytes()));
    }
    result.setProperty(prefix + "tiers", tiers.toString());
  }
}
