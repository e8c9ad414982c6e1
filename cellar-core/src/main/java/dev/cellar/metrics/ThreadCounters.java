package dev.cellar.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed set of counters, numbered from 0, that threads add to without an atomic instruction: each
 * thread adds to a row of its own, and a sum adds the rows up.
 *
 * <p><b>Why not {@link java.util.concurrent.atomic.LongAdder}.</b> An adder's cells are chosen by a
 * per-thread probe, and two threads whose probes pick the same cell keep sharing it as long as
 * their compare-and-swaps happen not to fail: every add then moves the cell's cache line from one
 * core to the other. A cached Get counts a block cache hit for each block it touches and an
 * operation for itself; with adders that was a tenth of its time on two cores. Here a thread's adds
 * are a plain load and store in a row nobody else writes.
 *
 * <p><b>Concurrency.</b> A row is written by its owner thread only, with opaque stores (no tearing,
 * no ordering), and read by {@link #sum} with opaque loads, so a sum taken while threads add sees
 * each row's recent value and may leave out adds in flight; once adding stops, it is exact. Rows
 * are registered under a lock on a thread's first add. A thread that has ended (its rows can no
 * longer change: its termination happens-before our observing it) has its row folded into the
 * retired totals the next time a thread registers or a sum runs, so threads that come and go do not
 * pile up rows.
 *
 * <p><b>Memory.</b> One row per thread that has added: the counters plus {@value #PAD} longs of
 * padding on each side, so that two threads' rows never share a cache line (nor a pair of lines,
 * which the processor may fetch together). Nothing is allocated after a thread's first add.
 */
public final class ThreadCounters {

  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

  /** Longs of padding before and after a row's counters: 128 bytes. */
  private static final int PAD = 16;

  private final int counters;
  private final ThreadLocal<long[]> rows = ThreadLocal.withInitial(this::register);
  private final Object lock = new Object();

  /** Guarded by {@link #lock}. */
  private final List<Row> live = new ArrayList<>();

  /** The sums of the rows of threads that ended; guarded by {@link #lock}. */
  private final long[] retired;

  private record Row(WeakReference<Thread> owner, long[] values) {

    boolean ownerEnded() {
      Thread thread = owner.get();
      return thread == null || !thread.isAlive();
    }
  }

  /** Counters numbered {@code 0 .. counters - 1}, all zero. */
  public ThreadCounters(int counters) {
    if (counters < 1) {
      throw new IllegalArgumentException("counters must be at least 1, was " + counters);
    }
    this.counters = counters;
    this.retired = new long[counters];
  }

  /** Adds {@code amount} to counter {@code counter}. */
  public void add(int counter, long amount) {
    long[] row = rows.get();
    int slot = PAD + checked(counter);
    SLOT.setOpaque(row, slot, (long) SLOT.getOpaque(row, slot) + amount);
  }

  /** Adds one to counter {@code counter}. */
  public void increment(int counter) {
    add(counter, 1);
  }

  /** The sum of every thread's adds to counter {@code counter}. */
  public long sum(int counter) {
    int slot = PAD + checked(counter);
    synchronized (lock) {
      foldEndedThreads();
      long sum = retired[counter];
      for (Row row : live) {
        sum += (long) SLOT.getOpaque(row.values, slot);
      }
      return sum;
    }
  }

  /** Rows in use: one per live thread that has added (for tests). */
  int liveRows() {
    synchronized (lock) {
      foldEndedThreads();
      return live.size();
    }
  }

  private int checked(int counter) {
    if (counter < 0 || counter >= counters) {
      throw new IndexOutOfBoundsException("counter " + counter + " of " + counters);
    }
    return counter;
  }

  private long[] register() {
    long[] values = new long[counters + 2 * PAD];
    synchronized (lock) {
      foldEndedThreads();
      live.add(new Row(new WeakReference<>(Thread.currentThread()), values));
    }
    return values;
  }

  private void foldEndedThreads() {
    live.removeIf(
        row -> {
          if (!row.ownerEnded()) {
            return false;
          }
          for (int i = 0; i < counters; i++) {
            retired[i] += (long) SLOT.getOpaque(row.values, PAD + i);
          }
          return true;
        });
  }
}
