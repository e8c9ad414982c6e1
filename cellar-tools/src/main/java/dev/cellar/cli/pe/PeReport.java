package dev.cellar.cli.pe;

import java.io.PrintStream;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Prints a {@link PeResult} for people: one labelled line per kind of figure. */
final class PeReport {

  private PeReport() {}

  static void print(PeResult result, boolean latencyDetails, PrintStream out) {
    PeOptions options = result.options();
    RunMeasurement m = result.measurement();
    out.printf(
        "%s: %d thread(s) x %,d rows = %,d rows, %s values, table %s%n",
        result.workload().command(),
        m.threads(),
        options.rowsPerThread(),
        options.totalRows(),
        valueShape(options),
        options.table());
    StringJoiner perThread = new StringJoiner(", ");
    for (RunMeasurement.ThreadFigures thread : m.perThread()) {
      perThread.add(
          String.format("%,.0f (%.2f s)", thread.opsPerSecond(), thread.elapsedNanos() / 1e9));
    }
    out.printf(
        "  throughput   %,.0f ops/s total over %.2f s; per thread ops/s: %s%n",
        m.opsPerSecond(), m.seconds(), perThread);
    out.printf(
        "  latency      %s (us, %,d timed ops)%n",
        percentiles(m.latency()), m.latency().getTotalCount());
    if (latencyDetails) {
      out.printf(
          "               mean %.1f  stddev %.1f  p99.999 %.1f  min %.1f%n",
          m.latency().getMean() / 1e3,
          m.latency().getStdDeviation() / 1e3,
          m.latency().getValueAtPercentile(99.999) / 1e3,
          m.latency().getMinValue() / 1e3);
      for (int t = 0; t < m.perThread().size(); t++) {
        out.printf("    thread %d   %s%n", t, percentiles(m.perThread().get(t).latency()));
      }
    }
    out.printf("  rows         %s%n", rows(result));
    if (result.missingRows() > 0) {
      out.printf(
          "  WARNING      %,d gets found no row: the table holds fewer rows than --rows x"
              + " <nthreads> (%,d); write them first or lower --rows%n",
          result.missingRows(), options.totalRows());
    }
    out.printf(
        "  heap         %,.0f bytes allocated per operation by the worker threads%n",
        m.allocatedBytesPerOperation());
    out.printf(
        "  gc           %,d collections, %,d ms%s%n",
        m.gc().totalCount(), m.gc().totalMillis(), collectors(m.gc()));
    if (result.server() != null) {
      out.printf(
          "  server       %s through Cellar's client: the block cache and the allocator"
              + " are the server's (its /jmx), the heap figure above is the client's%n",
          result.server());
    } else {
      out.printf("  block cache  %s%n", cache(result.cache()));
      out.printf(
          "  allocator    heap allocation ratio %.3f (heap bytes / all bytes allocated by"
              + " the pooled allocator during the run)%n",
          result.heapAllocationRatio());
    }
    if (result.flushMillis() >= 0) {
      out.printf("  flush        %.2f s (after the timed phase)%n", result.flushMillis() / 1e3);
    }
  }

  private static String valueShape(PeOptions options) {
    String shape =
        options.valueRandom()
            ? "uniform random sizes below "
            : options.valueZipf() ? "Zipf sizes below " : "";
    return shape + options.valueSize() + "-byte";
  }

  static String percentiles(Histogram latency) {
    StringJoiner line = new StringJoiner("  ");
    for (double p : PeResult.PERCENTILES) {
      line.add(String.format("p%s %.1f", PeResult.label(p), latency.getValueAtPercentile(p) / 1e3));
    }
    line.add(String.format("max %.1f", latency.getMaxValue() / 1e3));
    return line.toString();
  }

  private static String rows(PeResult result) {
    RunMeasurement m = result.measurement();
    PeWorkload workload = result.workload();
    if (workload.writes()) {
      return String.format("%,d written", m.rows());
    }
    if (workload == PeWorkload.RANDOM_READ || workload == PeWorkload.SEQUENTIAL_READ) {
      return String.format(
          "%,d of %,d gets found their row%s",
          m.rows(),
          m.operations(),
          result.options().filterAll() ? " (--filterAll returns none)" : "");
    }
    return String.format(
        "%,d returned by %,d scan operations (%.1f per operation)",
        m.rows(), m.operations(), m.operations() == 0 ? 0 : (double) m.rows() / m.operations());
  }

  private static String collectors(GcFigures gc) {
    if (gc.totalCount() == 0) {
      return "";
    }
    StringJoiner parts = new StringJoiner("; ", " (", ")");
    for (Map.Entry<String, Long> entry : new TreeMap<>(gc.counts()).entrySet()) {
      if (entry.getValue() > 0) {
        parts.add(
            entry.getKey()
                + ": "
                + entry.getValue()
                + ", "
                + gc.millis().get(entry.getKey())
                + " ms");
      }
    }
    return parts.toString();
  }

  private static String cache(CacheFigures cache) {
    if (cache.tiers().isEmpty()) {
      return "none (hfile.block.cache.size is 0)";
    }
    StringJoiner tiers = new StringJoiner("; ");
    for (CacheFigures.Tier tier : cache.tiers()) {
      tiers.add(
          String.format(
              "%s hit ratio %s (%,d hits, %,d misses%s; holds %,d blocks, %.1f MiB)",
              tier.name(),
              Double.isNaN(tier.hitRatio()) ? "-" : String.format("%.3f", tier.hitRatio()),
              tier.hits(),
              tier.misses(),
              tier.leftOut() == 0 ? "" : String.format(", %,d of them left out", tier.leftOut()),
              tier.blocks(),
              tier.bytes() / 1048576.0));
    }
    return tiers.toString();
  }
}
