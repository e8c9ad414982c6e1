package dev.cellar.cli.experiments.showdown;

import dev.cellar.CellarConfig;
import dev.cellar.cli.pe.PeOptions;
import dev.cellar.cli.pe.PeSetup;
import dev.cellar.cli.pe.PeWorkload;
import dev.cellar.cli.pe.PerformanceEvaluation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Runs the BlockCache showdown: for each database:RAM ratio, PE's sequentialWrite loads a
 * database of that many times the memory allotment (in this JVM, without the log, then flushed
 * and major-compacted), and each deploy measures it in a JVM of its own ({@link ShowdownChild}),
 * one after the other, so a deploy's heap, GC and cache are its own. The database is deleted
 * after its ratio; a file engine's cache file after its deploy.
 */
public final class ShowdownExperiment {

  static final String TABLE = "TestTable";
  private static final int LOAD_THREADS = 2;

  private ShowdownExperiment() {}

  public static List<ShowdownCase> run(ShowdownSettings settings, PrintStream progress)
      throws IOException {
    List<ShowdownCase> cases = new ArrayList<>();
    Path work = Files.createTempDirectory("cellar-bench-showdown-");
    try {
      for (double ratio : settings.ratios()) {
        Path database = work.resolve("db-" + ratio);
        long rows = load(settings, ratio, database, progress);
        for (Deploy deploy : settings.deploys()) {
          progress.printf("cellar bench showdown: ratio %s, %s: heap %,d MiB, L1 %,d MiB, L2 %,d"
              + " MiB%n", ratio, deploy.title(), deploy.heapBytes(settings.memory()) >> 20,
              deploy.l1Bytes(settings.memory()) >> 20, deploy.l2Bytes(settings.memory()) >> 20);
          Properties result = measure(settings, deploy, ratio, rows, database, work, progress);
          ShowdownCase c = toCase(deploy, ratio, rows, result);
          progress.printf("cellar bench showdown:   p99 %.0f us, p50 %.0f us, %.0f ops/s, GC %d ms,"
              + " hit ratios %s%n", c.p99Micros(), c.p50Micros(), c.opsPerSecond(), c.gcMillis(),
              c.hitRatios());
          cases.add(c);
        }
        deleteTree(database);
      }
    } finally {
      deleteTree(work);
    }
    return cases;
  }

  private static long load(ShowdownSettings settings, double ratio, Path database,
      PrintStream progress) throws IOException {
    long perThread = Math.max(1, settings.rows(ratio) / LOAD_THREADS);
    progress.printf("cellar bench showdown: ratio %s: loading %,d rows of %d bytes%n", ratio,
        perThread * LOAD_THREADS, ShowdownSettings.VALUE_SIZE);
    PeOptions load = new PeOptions(PeWorkload.SEQUENTIAL_WRITE, LOAD_THREADS, perThread,
        ShowdownSettings.VALUE_SIZE, false, false, 1, 1, Map.of("BLOCKSIZE", "65536",
            "BLOOMFILTER", "ROW", "DATA_BLOCK_ENCODING", "NONE", "COMPRESSION", "NONE"), true,
        false, false, false, 0, 0.01, false, TABLE, settings.seed(), 10);
    PerformanceEvaluation.run(load, new PeSetup(database, true, CellarConfig.defaults(), false,
        true), progress);
    return perThread * LOAD_THREADS;
  }

  private static Properties measure(ShowdownSettings settings, Deploy deploy, double ratio,
      long rows, Path database, Path work, PrintStream progress) throws IOException {
    long memory = settings.memory();
    Properties request = new Properties();
    request.setProperty("name", deploy.name().toLowerCase(java.util.Locale.ROOT));
    request.setProperty("database", database.toString());
    request.setProperty("table", TABLE);
    request.setProperty("rows", Long.toString(rows));
    request.setProperty("clients", Integer.toString(settings.clients()));
    request.setProperty("durationMillis", Long.toString(settings.runMillis()));
    request.setProperty("runs", Integer.toString(settings.runs()));
    request.setProperty("sampleRate", Double.toString(settings.sampleRate()));
    request.setProperty("warmByScan", Boolean.toString(ratio <= 0.5));
    request.setProperty("seed", Long.toString(settings.seed()));
    Path tmpfs = Files.createTempDirectory(settings.tmpfs(), "cellar-showdown-");
    try {
      deploy.config(memory, tmpfs).forEach((key, value) ->
          request.setProperty(ShowdownChild.CONFIG_PREFIX + key, value));
      List<String> command = ChildJvm.command(deploy.heapBytes(memory),
          deploy.directBytes(memory), work.resolve("request.properties"),
          work.resolve("result.properties"));
      return ChildJvm.run(deploy.title(), command, request, work, progress);
    } finally {
      deleteTree(tmpfs);
    }
  }

  private static ShowdownCase toCase(Deploy deploy, double ratio, long rows, Properties r) {
    Map<String, Double> hits = new LinkedHashMap<>();
    for (String tier : r.getProperty("tiers", "").split(",")) {
      if (!tier.isEmpty()) {
        hits.put(tier, Double.parseDouble(r.getProperty("tier." + tier + ".hitRatio")));
      }
    }
    return new ShowdownCase(deploy, ratio, rows, number(r, "opsPerSecond"),
        number(r, "p50Micros"), number(r, "p99Micros"), number(r, "p999Micros"),
        Long.parseLong(r.getProperty("gcMillis")), hits);
  }

  private static double number(Properties result, String key) {
    return Double.parseDouble(result.getProperty(key));
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
