package dev.cellar.cli.pe;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What {@link LoadRunner} measured of one phase.
 *
 * @param operations operations run, over all threads
 * @param rows rows the operations read or wrote
 * @param elapsedNanos from the moment every thread was released to the last one's end
 * @param perThread each thread's operations and time, by thread index
 * @param latency nanoseconds per timed operation (every operation, or the sampled ones)
 * @param allocatedBytes heap bytes the worker threads allocated while running operations
 * @param gc collections during the phase, in the whole JVM
 */
public record RunMeasurement(
    String name,
    long operations,
    long rows,
    long elapsedNanos,
    List<ThreadFigures> perThread,
    Histogram latency,
    long allocatedBytes,
    GcFigures gc) {

  public RunMeasurement {
    perThread = List.copyOf(perThread);
  }

  /** One thread's share. */
  public record ThreadFigures(long operations, long elapsedNanos, Histogram latency) {

    public double opsPerSecond() {
      return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
    }
  }

  public int threads() {
    return perThread.size();
  }

  public double seconds() {
    return elapsedNanos / 1e9;
  }

  public double opsPerSecond() {
    return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
  }

  /** Heap bytes allocated per operation by the worker threads. */
  public double allocatedBytesPerOperation() {
    return operations == 0 ? 0 : (double) allocatedBytes / operations;
  }

  /** The latency at {@code percentile} (0-100), in microseconds. */
  public double latencyMicros(double percentile) {
    return latency.getValueAtPercentile(percentile) / 1e3;
  }

  public double maxLatencyMicros() {
    return latency.getMaxValue() / 1e3;
  }
}
