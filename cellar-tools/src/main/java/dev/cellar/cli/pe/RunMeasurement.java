package dev.cellar.cli.pe;

import java.util.ArrayList;
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

  /**
   * The phases of {@code parts} (rounds of one workload on one store, run with the same threads) as
   * one: operations, rows, time, allocation and collections added up, latencies merged.
   */
  public static RunMeasurement combined(String name, List<RunMeasurement> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no phase to combine");
    }
    RunMeasurement first = parts.get(0);
    Histogram latency = first.latency.copy();
    List<ThreadFigures> threads = new ArrayList<>();
    for (ThreadFigures figures : first.perThread) {
      threads.add(
          new ThreadFigures(
              figures.operations(), figures.elapsedNanos(), figures.latency().copy()));
    }
    long operations = first.operations;
    long rows = first.rows;
    long elapsed = first.elapsedNanos;
    long allocated = first.allocatedBytes;
    GcFigures gc = first.gc;
    for (RunMeasurement part : parts.subList(1, parts.size())) {
      if (part.threads() != threads.size()) {
        throw new IllegalArgumentException(
            "phases of "
                + threads.size()
                + " and "
                + part.threads()
                + " threads cannot be combined");
      }
      latency.add(part.latency);
      for (int i = 0; i < threads.size(); i++) {
        ThreadFigures sum = threads.get(i);
        ThreadFigures more = part.perThread.get(i);
        sum.latency().add(more.latency());
        threads.set(
            i,
            new ThreadFigures(
                sum.operations() + more.operations(),
                sum.elapsedNanos() + more.elapsedNanos(),
                sum.latency()));
      }
      operations += part.operations;
      rows += part.rows;
      elapsed += part.elapsedNanos;
      allocated += part.allocatedBytes;
      gc = gc.plus(part.gc);
    }
    return new RunMeasurement(name, operations, rows, elapsed, threads, latency, allocated, gc);
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
