package dev.cellar.cli.experiments.offheap;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.experiments.report.Chart;
import dev.cellar.cli.experiments.report.ExperimentReport;
import dev.cellar.cli.experiments.report.Reference;
import dev.cellar.cli.experiments.report.Words;
import dev.cellar.cli.experiments.showdown.Deploy;
import dev.cellar.cli.experiments.showdown.DeploySizing;
import dev.cellar.cli.experiments.showdown.PhaseFigures;
import dev.cellar.cli.experiments.showdown.ReadWorkload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Turns the off-heap experiment's cases into its report: a title naming the deploys, thread counts
 * and memory that ran, each deploy's memory ({@link DeploySizing}), the results table with hit
 * ratios per tier, throughput (rows/s for multi-gets, as the seed gave them) and p99 per thread
 * count for each workload with a series per deploy, GC time of randomRead, multi-gets and filtered
 * scans, and the seed's published throughputs (PE multi-gets and YCSB, with and without the
 * off-heap read path); a smoke run is marked with its reasons.
 */
final class OffheapReport {

  private OffheapReport() {}

  static ExperimentReport of(OffheapSettings settings, List<OffheapCase> cases) {
    List<String> columns =
        new ArrayList<>(
            List.of(
                "deploy",
                "workload",
                "threads",
                "opsPerSecond",
                "rowsPerOperation",
                "p50Micros",
                "p99Micros",
                "p999Micros",
                "gcMillis"));
    columns.addAll(TierHitRatios.columns("hitRatio"));
    columns.add("loadAverage1m");
    List<List<Object>> rows = new ArrayList<>();
    for (OffheapCase c : cases) {
      PhaseFigures f = c.figures();
      List<Object> row =
          new ArrayList<>(
              Arrays.asList(
                  c.deploy().title(),
                  c.phase().workload().command(),
                  c.phase().threads(),
                  f.opsPerSecond(),
                  f.rowsPerOperation(),
                  f.p50Micros(),
                  f.p99Micros(),
                  f.p999Micros(),
                  f.gcMillis()));
      row.addAll(TierHitRatios.of(f.hitRatios()).values());
      row.add(f.loadAverage());
      rows.add(row);
    }
    List<Chart> charts = new ArrayList<>();
    for (ReadWorkload workload : ReadWorkload.values()) {
      if (workload == ReadWorkload.MULTI_GET) {
        charts.add(
            chart(
                workload.command() + "-throughput",
                workload.command() + ": rows per second (the seed's measure)",
                "rows/s",
                workload,
                settings,
                cases,
                f -> f.opsPerSecond() * f.rowsPerOperation()));
      } else {
        charts.add(
            chart(
                workload.command() + "-throughput",
                workload.command() + ": throughput",
                "ops/s",
                workload,
                settings,
                cases,
                PhaseFigures::opsPerSecond));
      }
      charts.add(
          chart(
              workload.command() + "-p99",
              workload.command() + ": p99 latency",
              "µs",
              workload,
              settings,
              cases,
              PhaseFigures::p99Micros));
    }
    for (ReadWorkload workload :
        List.of(ReadWorkload.RANDOM_READ, ReadWorkload.MULTI_GET, ReadWorkload.SCAN_FILTER_ALL)) {
      charts.add(
          chart(
              workload.command() + "-gc",
              workload.command() + ": GC time in the measured run",
              "ms",
              workload,
              settings,
              cases,
              f -> f.gcMillis()));
    }
    List<Reference> references =
        List.of(
            new Reference(
                "Offheaping the Read Path in Apache HBase, part 2 (Anoop Sam John,"
                    + " Ramkrishna S Vasudevan, Michael Stack, December 2015)",
                "one node, 8 cores, 150 GB; 100 GB of 1 KB cells all in an off-heap BucketCache of"
                    + " 102 GB, 9 GB heap; PE multi-gets of 100 rows; throughput in rows/s",
                List.of("threads", "without HBASE-11425", "with HBASE-11425"),
                List.of(
                    List.of(5, 5594092.638, 11353315.17),
                    List.of(10, 7152564.19, 19782393.7),
                    List.of(20, 7001330.25, 28477858.5),
                    List.of(25, 6920798.38, 28216704.3),
                    List.of(50, 6113142.03, 30229746.1),
                    List.of(75, 5463246.92, 30647270.3))),
            new Reference(
                "the same post: YCSB, 90 GB, 10 columns of 100 bytes",
                "multi-get of 100 rows and range scans, every block in the BucketCache; ops/s",
                List.of(
                    "threads",
                    "multi-get with",
                    "multi-get without",
                    "range scan with",
                    "range scan without"),
                List.of(
                    List.of(10, 28045.53, 23277.97, 5332.451701, 4139.416),
                    List.of(25, 45767.99, 25922.18, 8685.456204, 5340.796),
                    List.of(50, 58904.03, 24558.72, 9180.235565, 5149.0),
                    List.of(75, 63280.86, 24316.74, 9019.192842, 4981.8))));
    return new ExperimentReport(
        "offheap",
        title(settings),
        "Does serving blocks from an off-heap BucketCache, with a small heap, beat an on-heap"
            + " LRU cache in a large heap for Gets and for long filtered range scans, and how do"
            + " both scale with threads and GC?",
        settings.toJson(),
        List.of(DeploySizing.table(OffheapSettings.DEPLOYS, settings.allotment())),
        columns,
        rows,
        charts,
        references,
        List.of(
            "Both deploys hold every block (the data is sized to fit and warmed by a full"
                + " caching scan); each runs in its own JVM with the showdown's heap sizes, in"
                + " the table of each deploy's memory: a heap holds its caches and what the JVM"
                + " needs beside them.",
            "Each workload first runs untimed for one run's length (at least a second), so that"
                + " the JIT has compiled its read path before it is timed.",
            "Hit ratios are per tier: the L1 (the LRU deploy's only cache; the off-heap deploy's"
                + " holds index and bloom blocks, which scans do not look up, so its L1 is empty"
                + " for them), the L2 (data blocks, off-heap) and both combined.",
            PhaseFigures.LOAD_NOTE,
            "multiGet100 is one Get of a list of 100 random rows, as the seed's PE multi-gets;"
                + " its throughput chart counts rows, as the seed's table does.",
            "ycsbC and ycsbScan are YCSB's CoreWorkload (workload C, and E with scans only: 1"
                + " to 100 records from a zipfian start) over Cellar's YCSB binding, on a table of"
                + " 10 fields of 100 bytes, timed by the experiment's runner; the seed's YCSB"
                + " multi-get read 100 rows an operation, C reads one.",
            "Range scans read 10,000 rows from a random row; FilterAll drops every row on the"
                + " server, Tenth returns the range's first 1,000 (a RowFilter), so the server reads"
                + " all 10,000 either way.",
            "The seed compared HBase before and after HBASE-11425 (copying on-heap blocks vs"
                + " reading off-heap blocks in place) on 8 cores; Cellar has no copying read path,"
                + " so the comparison here is of where the cache lives and of the heap it needs."),
        settings.smokeReasons());
  }

  /** What ran: the deploys, the thread counts and the memory allotted to each deploy. */
  static String title(OffheapSettings settings) {
    List<String> threads = settings.threads().stream().map(String::valueOf).toList();
    return "The off-heap read path against the on-heap one: "
        + Words.and(OffheapSettings.DEPLOYS.stream().map(Deploy::title).toList())
        + " at "
        + Words.and(threads)
        + (threads.size() == 1 && threads.getFirst().equals("1") ? " thread, " : " threads, ")
        + Allotment.mib(settings.memory())
        + " allotted to each deploy";
  }

  private static Chart chart(
      String id,
      String title,
      String unit,
      ReadWorkload workload,
      OffheapSettings settings,
      List<OffheapCase> cases,
      ToDoubleFunction<PhaseFigures> value) {
    List<Chart.Series> series = new ArrayList<>();
    for (Deploy deploy : OffheapSettings.DEPLOYS) {
      List<Double> values = new ArrayList<>();
      for (int threads : settings.threads()) {
        values.add(
            cases.stream()
                .filter(
                    c ->
                        c.deploy() == deploy
                            && c.phase().workload() == workload
                            && c.phase().threads() == threads)
                .findFirst()
                .map(c -> value.applyAsDouble(c.figures()))
                .orElse(null));
      }
      series.add(new Chart.Series(deploy.title(), values));
    }
    return new Chart(
        id,
        title,
        unit,
        settings.threads().stream().map(t -> t == 1 ? "1 thread" : t + " threads").toList(),
        series);
  }
}
