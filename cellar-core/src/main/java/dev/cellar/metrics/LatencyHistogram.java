package dev.cellar.metrics;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * A histogram of durations in nanoseconds, cheap enough to record on every operation: no lock, no
 * allocation once warm, a few uncontended adds.
 *
 * <p><b>Buckets.</b> Log-linear, as HdrHistogram's: values below {@value #SUB_BUCKETS} have a
 * bucket each; above, each power of two is split into {@value #SUB_BUCKETS} equal buckets, so a
 * bucket's width is at most 1/16 of its lower bound (a percentile read from it is within 6.25%).
 * Values of 2<sup>{@value #MAX_EXPONENT}</sup> ns (about 73 minutes) and more share the last
 * bucket.
 *
 * <p><b>Concurrency.</b> Every bucket is a {@link LongAdder} and the sum, minimum and maximum are
 * adders and accumulators: threads recording at once touch separate cells instead of one contended
 * word, and a minimum or maximum that does not change is only read. {@link #snapshot()} sums the
 * buckets one by one, so a snapshot taken while others record may count a value in the buckets but
 * not yet in the sum (or the reverse); each figure is exact once recording stops.
 *
 * <p><b>Memory.</b> {@value #BUCKETS} adders (about 25 KB, more under contention as adders grow
 * cells), allocated up front so the recording path never allocates.
 */
public final class LatencyHistogram {

  static final int SUB_BITS = 4;
  static final int SUB_BUCKETS = 1 << SUB_BITS;
  static final int MAX_EXPONENT = 42;

  /** Buckets: the exact ones below 16, then 16 per power of two up to {@link #MAX_EXPONENT}. */
  public static final int BUCKETS = (MAX_EXPONENT - SUB_BITS + 1) * SUB_BUCKETS + SUB_BUCKETS;

  private final LongAdder[] counts = new LongAdder[BUCKETS];
  private final LongAdder sum = new LongAdder();
  private final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
  private final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);

  public LatencyHistogram() {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] = new LongAdder();
    }
  }

  /** Records one duration; negative values (a clock step) count as 0. */
  public void record(long nanos) {
    long value = Math.max(0, nanos);
    counts[indexOf(value)].increment();
    sum.add(value);
    min.accumulate(value);
    max.accumulate(value);
  }

  /** Records the time from {@code startNanos} (a {@link System#nanoTime()}) to now. */
  public void recordSince(long startNanos) {
    record(System.nanoTime() - startNanos);
  }

  /** The bucket of {@code value} (at least 0). */
  static int indexOf(long value) {
    if (value < SUB_BUCKETS) {
      return (int) value;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(value);
    if (exponent > MAX_EXPONENT) {
      return BUCKETS - 1;
    }
    int sub = (int) (value >>> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
    return (exponent - SUB_BITS + 1) * SUB_BUCKETS + sub;
  }

  /** The smallest value of bucket {@code index}. */
  static long lowerBound(int index) {
    if (index < SUB_BUCKETS) {
      return index;
    }
    int exponent = index / SUB_BUCKETS + SUB_BITS - 1;
    long sub = index % SUB_BUCKETS;
    return (SUB_BUCKETS + sub) << (exponent - SUB_BITS);
  }

  /** The largest value of bucket {@code index} ({@link Long#MAX_VALUE} for the last). */
  static long upperBound(int index) {
    return index == BUCKETS - 1 ? Long.MAX_VALUE : lowerBound(index + 1) - 1;
  }

  /** The counts so far (see the class comment for what concurrent recording does to them). */
  public HistogramSnapshot snapshot() {
    long[] buckets = new long[BUCKETS];
    long count = 0;
    for (int i = 0; i < BUCKETS; i++) {
      buckets[i] = counts[i].sum();
      count += buckets[i];
    }
    long low = min.get();
    long high = max.get();
    return new HistogramSnapshot(
        buckets, count, sum.sum(), count == 0 ? 0 : low, count == 0 ? 0 : high);
  }
}
