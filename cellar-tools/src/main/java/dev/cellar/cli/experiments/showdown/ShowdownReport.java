package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.experiments.report.Chart;
import dev.cellar.cli.experiments.report.ExperimentReport;
import dev.cellar.cli.experiments.report.Reference;
import dev.cellar.cli.experiments.report.Words;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Turns the showdown's cases into its report: a title naming the deploys, ratios and memory that
 * ran, each deploy's memory ({@link DeploySizing}), the results table with hit ratios per tier,
 * charts of p99 (the seed's metric), p50 and throughput per deploy with a series per database:RAM
 * ratio, GC time, and the seed's configuration table (its 8G rows) beside the sizes used here; a
 * smoke run is marked with its reasons. The seed's latencies were published as charts only, so
 * there are no numbers of its to draw beside ours.
 */
final class ShowdownReport {

  private ShowdownReport() {}

  static ExperimentReport of(ShowdownSettings settings, List<ShowdownCase> cases) {
    List<String> columns =
        new ArrayList<>(
            List.of(
                "deploy",
                "dbToRamRatio",
                "rows",
                "heapBytes",
                "l1Bytes",
                "l2Bytes",
                "opsPerSecond",
                "p50Micros",
                "p99Micros",
                "p999Micros",
                "gcMillis"));
    columns.addAll(TierHitRatios.columns("hitRatio"));
    columns.add("loadAverage1m");
    List<List<Object>> rows = new ArrayList<>();
    long memory = settings.memory();
    for (ShowdownCase c : cases) {
      List<Object> row =
          new ArrayList<>(
              Arrays.asList(
                  c.deploy().title(),
                  c.ratio(),
                  c.rows(),
                  c.deploy().heapBytes(memory),
                  c.deploy().l1Bytes(memory),
                  c.deploy().l2Bytes(memory),
                  c.opsPerSecond(),
                  c.p50Micros(),
                  c.p99Micros(),
                  c.p999Micros(),
                  c.gcMillis()));
      row.addAll(c.hitRatios().values());
      row.add(c.loadAverage());
      rows.add(row);
    }
    List<Chart> charts =
        List.of(
            chart(
                "p99",
                "randomRead p99 latency, " + settings.clients() + " clients",
                "µs",
                settings,
                cases,
                ShowdownCase::p99Micros),
            chart("p50", "randomRead p50 latency", "µs", settings, cases, ShowdownCase::p50Micros),
            chart(
                "throughput",
                "randomRead throughput",
                "ops/s",
                settings,
                cases,
                ShowdownCase::opsPerSecond),
            chart(
                "gc", "GC time during the measured run", "ms", settings, cases, c -> c.gcMillis()));
    Reference seed =
        new Reference(
            "BlockCache Showdown (Nick Dimiduk, 2014)",
            "64 GB, 24 cores, HBase 0.98 with CMS; PE randomRead, 5 clients, sample rate 0.01, the"
                + " last of 3 runs; its configuration table's 8G rows (the shares used here)",
            List.of("configuration", "total memory", "max heap", "block cache", "global MemStore"),
            List.of(
                List.of("LruBlockCache", "8G", "7.8G", "4.7G lru", "1.6G"),
                List.of("SlabCache", "8G", "1.5G", "4.74G slabs + 19.8m lru", "1.9G"),
                List.of("BucketCache, heap", "8G", "7.8G", "4.63G buckets + 47.9M lru", "1.6G"),
                List.of("BucketCache, offheap", "8G", "1.9G", "4.64G buckets + 48M lru", "1.5G"),
                List.of("BucketCache, tmpfs", "8G", "1.9G", "4.64G buckets + 48M lru", "1.5G")));
    return new ExperimentReport(
        "showdown",
        title(settings),
        "Which block cache deploy gives the lowest p99 for random reads when the data fits in"
            + " the cache, is a few times larger, or far larger; each deploy in its own JVM with"
            + " the heap and cache sizes of the seed's configuration table.",
        settings.toJson(),
        List.of(DeploySizing.table(settings.deploys(), settings.allotment())),
        columns,
        rows,
        charts,
        List.of(seed),
        notes(settings),
        settings.smokeReasons());
  }

  /** What ran: the deploys, the ratios and the memory allotted to each deploy. */
  static String title(ShowdownSettings settings) {
    List<String> deploys = settings.deploys().stream().map(Deploy::title).toList();
    List<String> ratios = settings.ratios().stream().map(String::valueOf).toList();
    return "BlockCache showdown of "
        + Words.and(deploys)
        + " at database:RAM "
        + (ratios.size() == 1 ? "ratio " : "ratios ")
        + Words.and(ratios)
        + ", "
        + Allotment.mib(settings.memory())
        + " allotted to each deploy";
  }

  private static List<String> notes(ShowdownSettings settings) {
    List<String> notes = new ArrayList<>();
    notes.add(
        "Every deploy runs in its own JVM (-Xms = -Xmx, default collector: G1), so an"
            + " on-heap cache pays its own GC. Its heap, caches and direct memory are in the table"
            + " of each deploy's memory: a heap holds its caches and what the JVM needs beside them.");
    if (settings.deploys().contains(Deploy.SLAB)) {
      notes.add(
          "The SlabCache-like deploy stands in for HBase 0.98's SlabCache: an off-heap L2"
              + " of two slot sizes, every block kept in both tiers.");
    }
    notes.add(
        "Warming follows the seed: a full caching scan at a ratio up to 0.5, else"
            + " randomRead at sample rate 0.1 for one run's length; after a scan, an untimed"
            + " randomRead of one run's length (at least a second) lets the JIT compile the read"
            + " path before the timed runs.");
    notes.add(
        "Hit ratios are per tier: the L1 (the only cache of LruBlockCache), the L2 and both"
            + " combined; a deploy without an L2 has none, and a tier no lookup reached is empty.");
    notes.add(PhaseFigures.LOAD_NOTE);
    notes.add(
        "The seed published its latencies as charts (PDF) only; its conclusions are"
            + " compared in docs/perf/2026-11-25-seed-experiments.md.");
    return notes;
  }

  private static Chart chart(
      String id,
      String title,
      String unit,
      ShowdownSettings settings,
      List<ShowdownCase> cases,
      ToDoubleFunction<ShowdownCase> value) {
    List<Chart.Series> series = new ArrayList<>();
    for (double ratio : settings.ratios()) {
      List<Double> values = new ArrayList<>();
      for (Deploy deploy : settings.deploys()) {
        values.add(
            cases.stream()
                .filter(c -> c.deploy() == deploy && c.ratio() == ratio)
                .findFirst()
                .map(value::applyAsDouble)
                .orElse(null));
      }
      series.add(new Chart.Series("db:RAM " + ratio, values));
    }
    return new Chart(
        id, title, unit, settings.deploys().stream().map(Deploy::title).toList(), series);
  }
}
