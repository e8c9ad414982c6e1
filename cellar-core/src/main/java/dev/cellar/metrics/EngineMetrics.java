package dev.cellar.metrics;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * One database's operation metrics: a {@link LatencyHistogram} per {@link Operation} and a
 * {@link LongAdder} per {@link Counter}. The engine records into it on every operation (two
 * {@link System#nanoTime()} reads and a few uncontended adds; no lock, no allocation); the
 * metric sources read {@link #snapshot(Operation)} and {@link #count(Counter)} when asked.
 *
 * <p>Thread-safe; lives as long as the database that made it.
 */
public final class EngineMetrics {

  private static final Operation[] OPERATIONS = Operation.values();
  private static final Counter[] COUNTERS = Counter.values();

  private final LatencyHistogram[] histograms = new LatencyHistogram[OPERATIONS.length];
  private final LongAdder[] counters = new LongAdder[COUNTERS.length];

  public EngineMetrics() {
    for (int i = 0; i < histograms.length; i++) {
      histograms[i] = new LatencyHistogram();
    }
    for (int i = 0; i < counters.length; i++) {
      counters[i] = new LongAdder();
    }
  }

  /** Records one {@code operation} that started at {@code startNanos} and ends now. */
  public void recordSince(Operation operation, long startNanos) {
    histograms[operation.ordinal()].recordSince(startNanos);
  }

  /** Records one {@code operation} that took {@code nanos}. */
  public void record(Operation operation, long nanos) {
    histograms[operation.ordinal()].record(nanos);
  }

  /** Adds {@code amount} to {@code counter}. */
  public void add(Counter counter, long amount) {
    counters[counter.ordinal()].add(amount);
  }

  public void increment(Counter counter) {
    counters[counter.ordinal()].increment();
  }

  /** The histogram of {@code operation}, for a recorder that keeps it at hand. */
  public LatencyHistogram histogram(Operation operation) {
    return histograms[operation.ordinal()];
  }

  public HistogramSnapshot snapshot(Operation operation) {
    return histograms[operation.ordinal()].snapshot();
  }

  public long count(Counter counter) {
    return counters[counter.ordinal()].sum();
  }

  /** Every histogram's snapshot now. */
  public Map<Operation, HistogramSnapshot> snapshots() {
    Map<Operation, HistogramSnapshot> all = new EnumMap<>(Operation.class);
    for (Operation operation : OPERATIONS) {
      all.put(operation, snapshot(operation));
    }
    return all;
  }
}
