package dev.cellar.cli.pe;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one measured phase: a {@link Worker} per thread, released together, each running its
 * operations (a fixed count, or until a deadline), timing every operation or a sample of them into
 * its own histogram, and counting the heap bytes its thread allocated while doing so. GC activity
 * is taken from the JVM's collectors before the release and after the last thread ends.
 *
 * <p>Threads share nothing while they run but the stop flag (set by the first failure) and the
 * progress counters; histograms and counts are merged after every thread has been joined.
 */
public final class LoadRunner {

  /** Latencies up to an hour, in nanoseconds, with three significant digits. */
  private static final long HIGHEST_LATENCY = 3_600_000_000_000L;

  /** Timed phases look at the clock every this many untimed operations. */
  private static final int DEADLINE_CHECK_EVERY = 64;

  /**
   * One phase.
   *
   * @param operationsPerThread operations each thread runs; ignored when {@code durationNanos} is
   *     above 0
   * @param durationNanos how long every thread runs, 0 to run a fixed count
   * @param sampleRate the fraction of operations timed, in (0, 1]
   * @param progressSeconds seconds between progress lines, 0 for none
   */
  public record Plan(
      String name,
      int threads,
      long operationsPerThread,
      long durationNanos,
      double sampleRate,
      int progressSeconds) {

    public Plan {
      if (threads < 1
          || sampleRate <= 0
          || sampleRate > 1
          || (durationNanos <= 0 && operationsPerThread < 1)) {
        throw new IllegalArgumentException(
            "invalid plan: "
                + threads
                + " threads, "
                + operationsPerThread
                + " operations each, "
                + durationNanos
                + " ns, sample rate "
                + sampleRate);
      }
    }
  }

  private LoadRunner() {}

  /** Runs {@code plan} with workers from {@code workers}; progress lines go to {@code progress}. */
  public static RunMeasurement run(Plan plan, Worker.Factory workers, PrintStream progress)
      throws IOException {
    ThreadMXBean threadBean = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    CountDownLatch ready = new CountDownLatch(plan.threads());
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    ThreadRun[] runs = new ThreadRun[plan.threads()];
    long planned = plan.durationNanos() > 0 ? 0 : plan.operationsPerThread() * plan.threads();
    try (ProgressReporter reporter =
        new ProgressReporter(
            plan.name(),
            plan.threads(),
            planned,
            plan.durationNanos(),
            plan.progressSeconds(),
            progress)) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < plan.threads(); t++) {
        ThreadRun run = new ThreadRun(t, plan, workers, reporter, threadBean, failure);
        runs[t] = run;
        threads.add(
            Thread.ofPlatform()
                .name("cellar-pe-" + plan.name() + "-" + t)
                .start(() -> run.run(ready, go)));
      }
      await(ready);
      GcFigures gcBefore = GcFigures.now();
      long start = System.nanoTime();
      reporter.start();
      go.countDown();
      for (Thread thread : threads) {
        join(thread);
      }
      long elapsed = System.nanoTime() - start;
      GcFigures gc = GcFigures.now().since(gcBefore);
      if (failure.get() != null) {
        throw new IOException(plan.name() + " failed: " + failure.get(), failure.get());
      }
      return measurement(plan, runs, elapsed, gc);
    }
  }

  private static RunMeasurement measurement(
      Plan plan, ThreadRun[] runs, long elapsed, GcFigures gc) {
    Histogram latency = new Histogram(HIGHEST_LATENCY, 3);
    List<RunMeasurement.ThreadFigures> perThread = new ArrayList<>();
    long operations = 0;
    long rows = 0;
    long allocated = 0;
    for (ThreadRun run : runs) {
      latency.add(run.latency);
      perThread.add(
          new RunMeasurement.ThreadFigures(run.operations, run.elapsedNanos, run.latency));
      operations += run.operations;
      rows += run.rows;
      allocated += run.allocatedBytes;
    }
    return new RunMeasurement(
        plan.name(), operations, rows, elapsed, perThread, latency, allocated, gc);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the workers", e);
    }
  }

  private static void join(Thread thread) {
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + thread.getName(), e);
    }
  }

  /** One thread's loop and what it measured; its fields are read after the thread is joined. */
  private static final class ThreadRun {
    private final int index;
    private final Plan plan;
    private final Worker.Factory workers;
    private final ProgressReporter reporter;
    private final ThreadMXBean threadBean;
    private final AtomicReference<Throwable> failure;
    final Histogram latency = new Histogram(HIGHEST_LATENCY, 3);
    long operations;
    long rows;
    long elapsedNanos;
    long allocatedBytes;

    ThreadRun(
        int index,
        Plan plan,
        Worker.Factory workers,
        ProgressReporter reporter,
        ThreadMXBean threadBean,
        AtomicReference<Throwable> failure) {
      this.index = index;
      this.plan = plan;
      this.workers = workers;
      this.reporter = reporter;
      this.threadBean = threadBean;
      this.failure = failure;
    }

    void run(CountDownLatch ready, CountDownLatch go) {
      Worker worker;
      try {
        worker = workers.create(index);
      } catch (IOException | RuntimeException e) {
        failure.compareAndSet(null, e);
        ready.countDown();
        return;
      }
      try (worker) {
        ready.countDown();
        go.await();
        loop(worker);
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }

    private void loop(Worker worker) throws IOException {
      long sampleEvery = Math.max(1, Math.round(1 / plan.sampleRate()));
      boolean timed = plan.durationNanos() > 0;
      long limit = timed ? Long.MAX_VALUE : plan.operationsPerThread();
      long allocatedBefore = threadBean.getCurrentThreadAllocatedBytes();
      long start = System.nanoTime();
      long deadline = start + plan.durationNanos();
      long i = 0;
      for (; i < limit && failure.get() == null; i++) {
        long read;
        if (i % sampleEvery == 0) {
          long t0 = System.nanoTime();
          read = worker.execute(i);
          long t1 = System.nanoTime();
          latency.recordValue(Math.min(t1 - t0, HIGHEST_LATENCY));
          if (timed && t1 - deadline >= 0) {
            i++;
            rows += read;
            break;
          }
        } else {
          read = worker.execute(i);
          if (timed && i % DEADLINE_CHECK_EVERY == 0 && System.nanoTime() - deadline >= 0) {
            i++;
            rows += read;
            break;
          }
        }
        rows += read;
        reporter.update(index, i + 1);
      }
      elapsedNanos = System.nanoTime() - start;
      allocatedBytes = threadBean.getCurrentThreadAllocatedBytes() - allocatedBefore;
      operations = i;
    }
  }
}
