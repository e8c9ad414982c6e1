package dev.cellar.metrics;

import java.util.concurrent.ThreadLocalRandom;

/**
 * One database's operation metrics: per {@link Operation} an exact count and a {@link
 * LatencyHistogram} of durations, and a count per {@link Counter}, the counts kept in {@link
 * ThreadCounters}. The engine records into it on every operation; the metric sources read it when
 * asked.
 *
 * <p><b>Cost.</b> An operation is counted with one add to the thread's own row. Its duration needs
 * two {@link System#nanoTime()} reads (about 20 ns each), which is several percent of a cached Get
 * of a couple of microseconds; so the operations marked {@link Operation#sampled()} (Gets and
 * scanned rows) time one call in {@value #SAMPLE_EVERY}, chosen by the thread's {@link
 * ThreadLocalRandom} (no shared state, no allocation): their counts stay exact and their histograms
 * are a uniform sample, which keeps the percentiles and the mean. Rarer or slower operations time
 * every call. A disabled instance records nothing and never reads the clock. No lock, no
 * allocation.
 *
 * <p>Thread-safe; lives as long as the database that made it.
 */
public final class EngineMetrics {

  /** What {@link #start} returns for a call it does not time. */
  public static final long NOT_TIMED = Long.MIN_VALUE;

  static final int SAMPLE_EVERY = 8;

  private static final Operation[] OPERATIONS = Operation.values();
  private static final Counter[] COUNTERS = Counter.values();

  private final boolean enabled;
  private final LatencyHistogram[] histograms = new LatencyHistogram[OPERATIONS.length];

  /** The operations' counts, then the counters'. */
  private final ThreadCounters counts = new ThreadCounters(OPERATIONS.length + COUNTERS.length);

  private volatile boolean servedOverRpc;

  /** Metrics that record. */
  public EngineMetrics() {
    this(true);
  }

  /** Metrics that record, or ({@code enabled} false) ignore every call. */
  public EngineMetrics(boolean enabled) {
    this.enabled = enabled;
    for (int i = 0; i < histograms.length; i++) {
      histograms[i] = new LatencyHistogram();
    }
  }

  public boolean enabled() {
    return enabled;
  }

  /**
   * Marks the database as served by an RPC server, which counts its requests in {@link
   * Counter#RPC_REQUESTS}: HBase's {@code totalRequestCount} is then that count rather than the
   * rows read and written.
   */
  public void servedOverRpc() {
    servedOverRpc = true;
  }

  /** Whether {@link #servedOverRpc()} was called. */
  public boolean isServedOverRpc() {
    return servedOverRpc;
  }

  /**
   * The start of one {@code operation}, to pass to {@link #recordSince}: the clock when this call
   * is timed, {@link #NOT_TIMED} when it is not (metrics off, or a sampled operation's call left
   * out of the sample).
   */
  public long start(Operation operation) {
    if (!enabled
        || (operation.sampled() && ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) != 0)) {
      return NOT_TIMED;
    }
    return System.nanoTime();
  }

  /** Counts one {@code operation} begun at {@code start} (from {@link #start}) and ending now. */
  public void recordSince(Operation operation, long start) {
    if (!enabled) {
      return;
    }
    counts.increment(operation.ordinal());
    if (start != NOT_TIMED) {
      histograms[operation.ordinal()].record(System.nanoTime() - start);
    }
  }

  /** Counts one {@code operation} that took {@code nanos}. */
  public void record(Operation operation, long nanos) {
    if (!enabled) {
      return;
    }
    counts.increment(operation.ordinal());
    histograms[operation.ordinal()].record(nanos);
  }

  /** Adds {@code amount} to {@code counter}. */
  public void add(Counter counter, long amount) {
    if (enabled) {
      counts.add(OPERATIONS.length + counter.ordinal(), amount);
    }
  }

  public void increment(Counter counter) {
    if (enabled) {
      counts.increment(OPERATIONS.length + counter.ordinal());
    }
  }

  /** How many {@code operation}s there were: exact, sampled or not. */
  public long operations(Operation operation) {
    return counts.sum(operation.ordinal());
  }

  /** The durations recorded for {@code operation} (a sample of them if it is sampled). */
  public HistogramSnapshot snapshot(Operation operation) {
    return histograms[operation.ordinal()].snapshot();
  }

  public long count(Counter counter) {
    return counts.sum(OPERATIONS.length + counter.ordinal());
  }
}
