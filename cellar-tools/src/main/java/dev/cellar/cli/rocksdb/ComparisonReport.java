package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.RunMeasurement;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints {@link RocksDbComparison}'s scenarios as tables, one row per store and a last row of
 * ratios Cellar/RocksDB (above 1 means Cellar has more of it: better for ops/s, rows/s and MB/s,
 * worse for the others), and as JSON-ready maps.
 */
final class ComparisonReport {

  private ComparisonReport() {}

  static void print(
      ComparisonSettings settings, RocksDbComparison.Comparison comparison, PrintStream out) {
    RowShape shape = settings.shape();
    out.printf(
        "cellar bench rocksdb: %,d rows of a %d-byte key and %s (%,.1f MiB of keys and"
            + " values), %d threads, Cellar cache %s%n",
        settings.rows(),
        shape.keyLength(),
        shape.columns() == 1
            ? shape.valueSize() + "-byte value"
            : shape.columns() + " values of " + shape.valueSize() + " bytes",
        settings.dataBytes() / 1048576.0,
        settings.threads(),
        settings.cacheTier() == CellarSide.CacheTier.L1
            ? "L1 (on heap)"
            : "L1 (index, bloom) + L2 offheap (data)");
    if (!settings.familyAttributes().isEmpty()) {
      out.printf("Cellar family: %s%n", settings.familyAttributes());
    }
    for (RocksDbComparison.Scenario scenario : comparison.scenarios()) {
      out.printf(
          "%ncache %.2f x data: %,.1f MiB for each store%n",
          scenario.cacheRatio(), scenario.cacheBytes() / 1048576.0);
      if (!scenario.results().isEmpty()) {
        printGets(settings, scenario.results(), out);
      }
      if (!scenario.scans().isEmpty()) {
        printScans(settings, scenario.scans(), out);
      }
    }
    if (comparison.write() != null) {
      printWrites(settings, comparison.write(), out);
    }
  }

  private static String amount(ComparisonSettings settings, String operations) {
    return settings.operations() > 0
        ? String.format("%,d %s", settings.operations(), operations)
        : settings.seconds() + " s";
  }

  private static void printGets(
      ComparisonSettings settings, List<ScenarioResult> results, PrintStream out) {
    out.printf("  uniform random gets, %s per store%n", amount(settings, "gets"));
    out.printf(
        "  %-15s %12s %10s %10s %12s %6s %8s%n",
        "", "ops/s", "p50 us", "p99 us", "heap B/get", "GCs", "GC ms");
    for (ScenarioResult result : results) {
      RunMeasurement m = result.measurement();
      out.printf(
          "  %-15s %,12.0f %10.1f %10.1f %,12.1f %6d %8d%n",
          result.store(),
          m.opsPerSecond(),
          result.p50Micros(),
          result.p99Micros(),
          m.allocatedBytesPerOperation(),
          m.gc().totalCount(),
          m.gc().totalMillis());
    }
    if (results.size() == 2) {
      ScenarioResult cellar = results.get(0);
      ScenarioResult rocks = results.get(1);
      out.printf(
          "  %-15s %11.2fx %9.2fx %9.2fx %12s %6s %8s%n",
          "Cellar/RocksDB",
          ratio(cellar.measurement().opsPerSecond(), rocks.measurement().opsPerSecond()),
          ratio(cellar.p50Micros(), rocks.p50Micros()),
          ratio(cellar.p99Micros(), rocks.p99Micros()),
          "-",
          "-",
          "-");
      printRounds("gets/s", cellar.roundOpsPerSecond(), rocks.roundOpsPerSecond(), out);
    }
    for (ScenarioResult result : results) {
      out.printf("  %-8s cache: %s%n", result.store(), result.cache());
      if (result.wrongValues() > 0) {
        out.printf(
            "  WARNING  %s: %,d gets returned no value or one of the wrong size%n",
            result.store(), result.wrongValues());
      }
    }
  }

  private static void printScans(
      ComparisonSettings settings, List<ScanResult> results, PrintStream out) {
    out.printf(
        "  scans of %s, blocks %s, %s per store; MB/s of keys and values, latencies per"
            + " scan%n",
        settings.scanRows() == 0
            ? "each thread's share of the table"
            : String.format("%,d rows from random rows", settings.scanRows()),
        settings.cacheBlocks() ? "cached" : "not cached",
        amount(settings, "scans"));
    out.printf(
        "  %-15s %12s %9s %11s %11s %11s %6s %8s%n",
        "", "rows/s", "MB/s", "p50 us", "p99 us", "heap B/row", "GCs", "GC ms");
    for (ScanResult result : results) {
      RunMeasurement m = result.measurement();
      out.printf(
          "  %-15s %,12.0f %,9.0f %11.1f %11.1f %,11.1f %6d %8d%n",
          result.store(),
          result.rowsPerSecond(),
          result.megabytesPerSecond(),
          result.p50Micros(),
          result.p99Micros(),
          result.heapBytesPerRow(),
          m.gc().totalCount(),
          m.gc().totalMillis());
    }
    if (results.size() == 2) {
      ScanResult cellar = results.get(0);
      ScanResult rocks = results.get(1);
      out.printf(
          "  %-15s %11.2fx %8.2fx %10.2fx %10.2fx %11s %6s %8s%n",
          "Cellar/RocksDB",
          ratio(cellar.rowsPerSecond(), rocks.rowsPerSecond()),
          ratio(cellar.megabytesPerSecond(), rocks.megabytesPerSecond()),
          ratio(cellar.p50Micros(), rocks.p50Micros()),
          ratio(cellar.p99Micros(), rocks.p99Micros()),
          "-",
          "-",
          "-");
      printRounds("rows/s", cellar.roundRowsPerSecond(), rocks.roundRowsPerSecond(), out);
    }
    for (ScanResult result : results) {
      out.printf("  %-8s cache: %s%n", result.store(), result.cache());
      if (result.wrongRows() > 0) {
        out.printf(
            "  WARNING  %s: %,d rows missing, extra or of the wrong size%n",
            result.store(), result.wrongRows());
      }
    }
  }

  private static void printWrites(
      ComparisonSettings settings, RocksDbComparison.WriteScenario write, PrintStream out) {
    out.printf(
        "%nwrite: batches of %d new random rows, write-ahead log synced (fdatasync) once"
            + " per batch, %s per store; latencies per batch%n",
        write.batchRows(), amount(settings, "batches"));
    out.printf(
        "  %-15s %12s %10s %10s %12s %6s %8s%n",
        "", "rows/s", "p50 us", "p99 us", "heap B/row", "GCs", "GC ms");
    for (WriteResult result : write.results()) {
      RunMeasurement m = result.measurement();
      out.printf(
          "  %-15s %,12.0f %10.1f %10.1f %,12.1f %6d %8d%n",
          result.store(),
          result.rowsPerSecond(),
          result.p50Micros(),
          result.p99Micros(),
          result.heapBytesPerRow(),
          m.gc().totalCount(),
          m.gc().totalMillis());
    }
    if (write.results().size() == 2) {
      WriteResult cellar = write.results().get(0);
      WriteResult rocks = write.results().get(1);
      out.printf(
          "  %-15s %11.2fx %9.2fx %9.2fx %12s %6s %8s%n",
          "Cellar/RocksDB",
          ratio(cellar.rowsPerSecond(), rocks.rowsPerSecond()),
          ratio(cellar.p50Micros(), rocks.p50Micros()),
          ratio(cellar.p99Micros(), rocks.p99Micros()),
          "-",
          "-",
          "-");
    }
    for (WriteResult result : write.results()) {
      if (result.wrongValues() > 0) {
        out.printf(
            "  WARNING  %s: %,d rows written were read back without their value%n",
            result.store(), result.wrongValues());
      }
    }
  }

  /** The Cellar/RocksDB ratio of each round and their median, when there are rounds. */
  private static void printRounds(
      String what, List<Double> cellar, List<Double> rocks, PrintStream out) {
    if (cellar.size() < 2) {
      return;
    }
    List<Double> ratios = roundRatios(cellar, rocks);
    out.printf(
        "  %s Cellar/RocksDB per round: median %.2fx of %s%n",
        what, median(ratios), ratios.stream().map(r -> String.format("%.2fx", r)).toList());
  }

  static List<Double> roundRatios(List<Double> cellar, List<Double> rocks) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(cellar.size(), rocks.size()); i++) {
      ratios.add(ratio(cellar.get(i), rocks.get(i)));
    }
    return ratios;
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1
        ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }

  private static double ratio(double cellar, double rocks) {
    return rocks == 0 ? Double.NaN : cellar / rocks;
  }

  static Map<String, Object> toJson(
      ComparisonSettings settings, RocksDbComparison.Comparison comparison) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "workloads",
        settings.workloads().stream().map(w -> w.name().toLowerCase(Locale.ROOT)).toList());
    json.put("rows", settings.rows());
    json.put("keyLength", settings.shape().keyLength());
    json.put("columns", settings.shape().columns());
    json.put("valueSize", settings.shape().valueSize());
    json.put("threads", settings.threads());
    json.put("operations", settings.operations());
    json.put("seconds", settings.seconds());
    json.put("rounds", settings.rounds());
    json.put("cacheTier", settings.cacheTier().name());
    json.put("familyAttributes", settings.familyAttributes());
    json.put("dataBytes", settings.dataBytes());
    json.put("scanRows", settings.scanRows());
    json.put("cacheBlocks", settings.cacheBlocks());
    json.put(
        "scenarios",
        comparison.scenarios().stream()
            .map(
                s -> {
                  Map<String, Object> scenario = new LinkedHashMap<>();
                  scenario.put("cacheRatio", s.cacheRatio());
                  scenario.put("cacheBytes", s.cacheBytes());
                  scenario.put(
                      "results", s.results().stream().map(ScenarioResult::toJson).toList());
                  if (s.results().size() == 2) {
                    RunMeasurement cellar = s.results().get(0).measurement();
                    RunMeasurement rocks = s.results().get(1).measurement();
                    scenario.put(
                        "cellarOverRocksDbOpsPerSecond",
                        ratio(cellar.opsPerSecond(), rocks.opsPerSecond()));
                    scenario.put(
                        "cellarOverRocksDbP99",
                        ratio(cellar.latencyMicros(99), rocks.latencyMicros(99)));
                    scenario.put(
                        "cellarOverRocksDbOpsPerSecondMedianOfRounds",
                        median(
                            roundRatios(
                                s.results().get(0).roundOpsPerSecond(),
                                s.results().get(1).roundOpsPerSecond())));
                  }
                  scenario.put("scans", s.scans().stream().map(ScanResult::toJson).toList());
                  if (s.scans().size() == 2) {
                    scenario.put(
                        "cellarOverRocksDbScanMegabytesPerSecond",
                        ratio(
                            s.scans().get(0).megabytesPerSecond(),
                            s.scans().get(1).megabytesPerSecond()));
                    scenario.put(
                        "cellarOverRocksDbScanMedianOfRounds",
                        median(
                            roundRatios(
                                s.scans().get(0).roundRowsPerSecond(),
                                s.scans().get(1).roundRowsPerSecond())));
                  }
                  return scenario;
                })
            .toList());
    RocksDbComparison.WriteScenario write = comparison.write();
    if (write != null) {
      Map<String, Object> writes = new LinkedHashMap<>();
      writes.put("batchRows", write.batchRows());
      writes.put("results", write.results().stream().map(WriteResult::toJson).toList());
      if (write.results().size() == 2) {
        WriteResult cellar = write.results().get(0);
        WriteResult rocks = write.results().get(1);
        writes.put(
            "cellarOverRocksDbRowsPerSecond", ratio(cellar.rowsPerSecond(), rocks.rowsPerSecond()));
        writes.put("cellarOverRocksDbBatchP99", ratio(cellar.p99Micros(), rocks.p99Micros()));
      }
      json.put("write", writes);
    }
    return json;
  }
}
