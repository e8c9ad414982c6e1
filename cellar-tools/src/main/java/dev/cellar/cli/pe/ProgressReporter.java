package dev.cellar.cli.pe;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Prints a progress line for a running phase every few seconds on a daemon thread: operations done
 * out of the planned total (or seconds out of the planned duration), the rate over the last
 * interval and the estimated time left.
 *
 * <p>Worker threads publish their counts into {@link #counts} (one slot per thread, spaced a cache
 * line apart so the writers do not share one) with ordered writes; this thread only reads them.
 */
final class ProgressReporter implements AutoCloseable {

  private static final int SPACING = 16;

  private final String name;
  private final int threads;
  private final long plannedOperations;
  private final long plannedNanos;
  private final long intervalNanos;
  private final PrintStream out;
  private final AtomicLongArray counts;
  private final Thread thread;
  private volatile boolean done;

  /**
   * @param plannedOperations the total to reach, or 0 when the phase is timed
   * @param plannedNanos the phase's duration when timed, else 0
   * @param seconds the interval; 0 prints nothing
   */
  ProgressReporter(
      String name,
      int threads,
      long plannedOperations,
      long plannedNanos,
      int seconds,
      PrintStream out) {
    this.name = name;
    this.threads = threads;
    this.plannedOperations = plannedOperations;
    this.plannedNanos = plannedNanos;
    this.intervalNanos = seconds * 1_000_000_000L;
    this.out = out;
    this.counts = new AtomicLongArray(threads * SPACING);
    this.thread =
        seconds == 0
            ? null
            : Thread.ofPlatform().name("cellar-pe-progress").daemon().unstarted(this::report);
  }

  /** Starts reporting; the phase's clock starts now. */
  void start() {
    if (thread != null) {
      thread.start();
    }
  }

  /** Thread {@code index} has run {@code operations} operations. */
  void update(int index, long operations) {
    counts.setRelease(index * SPACING, operations);
  }

  private long total() {
    long sum = 0;
    for (int i = 0; i < threads; i++) {
      sum += counts.getAcquire(i * SPACING);
    }
    return sum;
  }

  private void report() {
    long start = System.nanoTime();
    long previousCount = 0;
    long previousTime = start;
    while (!done) {
      try {
        Thread.sleep(intervalNanos / 1_000_000);
      } catch (InterruptedException e) {
        return;
      }
      if (done) {
        return;
      }
      long now = System.nanoTime();
      long count = total();
      double rate = (count - previousCount) * 1e9 / Math.max(1, now - previousTime);
      double elapsed = (now - start) / 1e9;
      String share;
      double left;
      if (plannedOperations > 0) {
        share =
            String.format(
                "%,d/%,d ops (%.0f%%)",
                count, plannedOperations, 100.0 * count / plannedOperations);
        left = rate > 0 ? (plannedOperations - count) / rate : Double.NaN;
      } else {
        share = String.format("%,d ops, %.0f/%.0f s", count, elapsed, plannedNanos / 1e9);
        left = plannedNanos / 1e9 - elapsed;
      }
      out.printf(
          "%s: %s, %,.0f ops/s, %.0f s elapsed, about %.0f s left%n",
          name, share, rate, elapsed, Math.max(0, left));
      out.flush();
      previousCount = count;
      previousTime = now;
    }
  }

  @Override
  public void close() {
    done = true;
    if (thread != null) {
      thread.interrupt();
    }
  }
}
