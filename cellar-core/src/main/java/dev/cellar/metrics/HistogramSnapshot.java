package dev.cellar.metrics;

import java.util.Arrays;
import java.util.List;

/**
 * A {@link LatencyHistogram}'s counts at one moment, or the difference of two moments ({@link
 * #since}): the number of values, their sum, smallest and largest, and percentiles read from the
 * buckets. Values are nanoseconds. Immutable.
 */
public final class HistogramSnapshot {

  /** The percentiles HBase's histograms publish, as fractions. */
  public static final double[] PERCENTILES = {0.25, 0.5, 0.75, 0.90, 0.95, 0.98, 0.99, 0.999};

  private final long[] buckets;
  private final long count;
  private final long sum;
  private final long min;
  private final long max;

  HistogramSnapshot(long[] buckets, long count, long sum, long min, long max) {
    this.buckets = buckets;
    this.count = count;
    this.sum = sum;
    this.min = min;
    this.max = max;
  }

  /** A snapshot of nothing. */
  public static HistogramSnapshot empty() {
    return new HistogramSnapshot(new long[LatencyHistogram.BUCKETS], 0, 0, 0, 0);
  }

  public long count() {
    return count;
  }

  public long sum() {
    return sum;
  }

  /** The smallest value, 0 with none. */
  public long min() {
    return min;
  }

  /** The largest value, 0 with none. */
  public long max() {
    return max;
  }

  /** The mean, 0 with no values. */
  public double mean() {
    return count == 0 ? 0 : (double) sum / count;
  }

  /**
   * The value below which a {@code fraction} of the values fall: the upper bound of the bucket
   * holding the value of that rank, kept within [min, max]; 0 with no values.
   */
  public long percentile(double fraction) {
    if (count == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(fraction * count));
    long seen = 0;
    for (int i = 0; i < buckets.length; i++) {
      seen += buckets[i];
      if (seen >= rank) {
        return Math.max(min, Math.min(max, LatencyHistogram.upperBound(i)));
      }
    }
    return max;
  }

  /**
   * What was recorded between {@code earlier} and this snapshot. The minimum and maximum are those
   * of the buckets that gained values (bucket bounds, not the exact values).
   */
  public HistogramSnapshot since(HistogramSnapshot earlier) {
    long[] delta = new long[buckets.length];
    long total = 0;
    int first = -1;
    int last = -1;
    for (int i = 0; i < buckets.length; i++) {
      delta[i] = Math.max(0, buckets[i] - earlier.buckets[i]);
      total += delta[i];
      if (delta[i] > 0) {
        first = first < 0 ? i : first;
        last = i;
      }
    }
    if (total == 0) {
      return empty();
    }
    long low = Math.max(min, LatencyHistogram.lowerBound(first));
    long high = Math.min(max, LatencyHistogram.upperBound(last));
    return new HistogramSnapshot(delta, total, Math.max(0, sum - earlier.sum), low, high);
  }

  /** The values of all of {@code snapshots} as one histogram. */
  public static HistogramSnapshot merge(List<HistogramSnapshot> snapshots) {
    long[] buckets = new long[LatencyHistogram.BUCKETS];
    long count = 0;
    long sum = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    for (HistogramSnapshot snapshot : snapshots) {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] += snapshot.buckets[i];
      }
      if (snapshot.count > 0) {
        count += snapshot.count;
        sum += snapshot.sum;
        min = Math.min(min, snapshot.min);
        max = Math.max(max, snapshot.max);
      }
    }
    return count == 0 ? empty() : new HistogramSnapshot(buckets, count, sum, min, max);
  }

  @Override
  public String toString() {
    return "HistogramSnapshot[count="
        + count
        + ", min="
        + min
        + ", max="
        + max
        + ", p99="
        + percentile(0.99)
        + ", nonEmptyBuckets="
        + Arrays.stream(buckets).filter(b -> b > 0).count()
        + "]";
  }
}
