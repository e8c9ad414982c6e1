package dev.cellar.observe;

import dev.cellar.metrics.HistogramSnapshot;
import java.util.List;

/**
 * Writes a latency histogram as HBase's region server publishes one: {@code <Name>_num_ops}, then
 * {@code _min}, {@code _max}, {@code _mean}, {@code _25th_percentile}, {@code _median}, {@code
 * _75th_percentile}, {@code _90th_percentile}, {@code _95th_percentile}, {@code _98th_percentile},
 * {@code _99th_percentile} and {@code _99.9th_percentile}, in milliseconds. HBase publishes whole
 * milliseconds over its last reporting period; Cellar publishes fractional milliseconds
 * (microsecond precision, since a cached Get takes microseconds) over the whole life of the
 * database.
 */
public final class Histograms {

  private static final String[] SUFFIXES = {
    "_25th_percentile",
    "_median",
    "_75th_percentile",
    "_90th_percentile",
    "_95th_percentile",
    "_98th_percentile",
    "_99th_percentile",
    "_99.9th_percentile"
  };

  private Histograms() {}

  /**
   * Adds the figures of a histogram of {@code count} operations whose durations (all, or a sample)
   * are {@code snapshot}.
   */
  public static void add(
      List<Metric> out, String name, String description, long count, HistogramSnapshot snapshot) {
    out.add(Metric.counter(name + "_num_ops", description + ": count", count));
    out.add(Metric.gauge(name + "_min", description + ": min (ms)", millis(snapshot.min())));
    out.add(Metric.gauge(name + "_max", description + ": max (ms)", millis(snapshot.max())));
    out.add(Metric.gauge(name + "_mean", description + ": mean (ms)", millis(snapshot.mean())));
    for (int i = 0; i < SUFFIXES.length; i++) {
      out.add(
          Metric.gauge(
              name + SUFFIXES[i],
              description + ": " + SUFFIXES[i].substring(1) + " (ms)",
              millis(snapshot.percentile(HistogramSnapshot.PERCENTILES[i]))));
    }
  }

  /**
   * As {@link #add}, for a histogram of sizes in bytes (HBase's size histograms: {@code ScanSize},
   * {@code requestSize}): the same names, the values in bytes.
   */
  public static void addSizes(
      List<Metric> out, String name, String description, long count, HistogramSnapshot snapshot) {
    out.add(Metric.counter(name + "_num_ops", description + ": count", count));
    out.add(Metric.gauge(name + "_min", description + ": min (bytes)", snapshot.min()));
    out.add(Metric.gauge(name + "_max", description + ": max (bytes)", snapshot.max()));
    out.add(Metric.gauge(name + "_mean", description + ": mean (bytes)", snapshot.mean()));
    for (int i = 0; i < SUFFIXES.length; i++) {
      out.add(
          Metric.gauge(
              name + SUFFIXES[i],
              description + ": " + SUFFIXES[i].substring(1) + " (bytes)",
              snapshot.percentile(HistogramSnapshot.PERCENTILES[i])));
    }
  }

  /** Nanoseconds as milliseconds rounded to the microsecond. */
  static double millis(double nanos) {
    return Math.round(nanos / 1_000) / 1_000.0;
  }
}
