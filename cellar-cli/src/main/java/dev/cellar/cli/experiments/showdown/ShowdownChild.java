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
import java.util.Map;
import java.util.Properties;

/**
 * The showdown's measuring process: one deploy in its own JVM, started by {@link ChildJvm} with
 * the deploy's heap and direct memory. Reads its request (a properties file: the database, the
 * rows, the clients, the timings and every {@code config.}-prefixed configuration key), opens the
 * loaded database with the deploy's configuration, warms the block cache as the seed did (a full
 * scan caching its blocks when the data fits, else randomRead sampled at 0.1 for the run's
 * duration), runs randomRead with the clients for the requested runs and writes what the last
 * one measured as a properties file: the seed kept its last of three runs.
 *
 * <p>Exit codes: 0 done, 1 failed (one line on stderr says why).
 */
public final class ShowdownChild {

  static final String CONFIG_PREFIX = "config.";

  private ShowdownChild() {}

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: ShowdownChild <request.properties> <result.properties>");
      System.exit(1);
    }
    try {
      run(Path.of(args[0]), Path.of(args[1]));
    } catch (IOException | RuntimeException e) {
      System.err.println("showdown child: " + e.getMessage());
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
    int clients = Integer.parseInt(request.getProperty("clients"));
    long durationNanos = Long.parseLong(request.getProperty("durationMillis")) * 1_000_000;
    int runs = Integer.parseInt(request.getProperty("runs"));
    double sampleRate = Double.parseDouble(request.getProperty("sampleRate"));
    boolean scanWarm = Boolean.parseBoolean(request.getProperty("warmByScan"));
    long seed = Long.parseLong(request.getProperty("seed"));
    String name = request.getProperty("name");
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults().withAll(settings))) {
      Table table = cellar.table(request.getProperty("table"));
      if (scanWarm) {
        warmByScan(table);
      } else {
        LoadRunner.run(new LoadRunner.Plan(name + "-warm", clients, 0, durationNanos, 0.1, 0),
            thread -> new RowGets(table, rows, ~seed - thread), System.err);
      }
      RunMeasurement last = null;
      CacheFigures cache = null;
      for (int run = 0; run < runs; run++) {
        CacheFigures before = CacheFigures.of(cellar.blockCache());
        int offset = run * clients;
        last = LoadRunner.run(new LoadRunner.Plan(name, clients, 0, durationNanos, sampleRate,
            0), thread -> new RowGets(table, rows, seed + offset + thread), System.err);
        cache = CacheFigures.of(cellar.blockCache()).since(before);
      }
      write(resultFile, last, cache);
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

  private static void write(Path file, RunMeasurement m, CacheFigures cache) throws IOException {
    Properties result = new Properties();
    result.setProperty("operations", Long.toString(m.operations()));
    result.setProperty("opsPerSecond", Double.toString(m.opsPerSecond()));
    result.setProperty("p50Micros", Double.toString(m.latencyMicros(50)));
    result.setProperty("p99Micros", Double.toString(m.latencyMicros(99)));
    result.setProperty("p999Micros", Double.toString(m.latencyMicros(99.9)));
    result.setProperty("timedOperations", Long.toString(m.latency().getTotalCount()));
    result.setProperty("gcMillis", Long.toString(m.gc().totalMillis()));
    result.setProperty("gcCollections", Long.toString(m.gc().totalCount()));
    result.setProperty("heapBytesPerOperation", Double.toString(m.allocatedBytesPerOperation()));
    StringBuilder tiers = new StringBuilder();
    for (CacheFigures.Tier tier : cache.tiers()) {
      tiers.append(tiers.isEmpty() ? "" : ",").append(tier.name());
      result.setProperty("tier." + tier.name() + ".hitRatio", Double.toString(tier.hitRatio()));
      result.setProperty("tier." + tier.name() + ".bytes", Long.toString(tier.bytes()));
    }
    result.setProperty("tiers", tiers.toString());
    try (Writer out = Files.newBufferedWriter(file)) {
      result.store(out, "cellar bench showdown: one deploy's last run");
    }
  }
}
