package dev.cellar.store;

/**
 * Multi-version concurrency control for one region, as HBase's MultiVersionConcurrencyControl: a
 * write takes the next write number ({@link #begin()}), stamps its cells with it, and {@link
 * #complete}s it once they are all in the MemStore and as durable as it asked. The read point is
 * the highest number up to which every write has completed; a read sees only cells at or below the
 * read point it started with, so it never sees half of a mutation, nor a later write while an
 * earlier one is still in flight.
 *
 * <p><b>State.</b> Numbers are handed out consecutively, so the writes in flight are exactly the
 * numbers above the read point up to the last one handed out; a ring of flags indexed by number
 * says which of them completed. The ring doubles when more writes are in flight than it holds and
 * never shrinks, so steady state allocates nothing.
 *
 * <p><b>Concurrency.</b> {@link #begin()} and {@link #complete} take this object's monitor for a
 * few instructions; {@link #readPoint()} is a volatile read. {@link #await} waits on the monitor
 * until the read point reaches a number, and a completion that moves the read point wakes the
 * waiters. Waiting is not interruptible: it ends when the writes in flight complete, which they do
 * whatever their outcome (a writer completes its number in a finally block), so it cannot hang on
 * something an interrupt would cure.
 */
final class Mvcc {

  private static final int INITIAL_RING = 64;

  /** completed[n & (length - 1)]: whether write n, above the read point, completed. */
  private boolean[] completed = new boolean[INITIAL_RING];

  private long next;
  private volatile long readPoint;

  /** Starts after {@code lastWritten}, the highest number already durable (files, replay). */
  Mvcc(long lastWritten) {
    this.next = lastWritten;
    this.readPoint = lastWritten;
  }

  /** A new write number, pending until {@link #complete}d. */
  synchronized long begin() {
    if (next + 1 - readPoint > completed.length) {
      grow();
    }
    return ++next;
  }

  private void grow() {
    boolean[] larger = new boolean[completed.length * 2];
    for (long n = readPoint + 1; n <= next; n++) {
      larger[(int) (n & (larger.length - 1))] = completed[(int) (n & (completed.length - 1))];
    }
    completed = larger;
  }

  /**
   * Marks {@code number} complete and advances the read point past every completed number.
   *
   * @throws IllegalStateException if the number is not pending
   */
  synchronized void complete(long number) {
    int mask = completed.length - 1;
    if (number <= readPoint || number > next || completed[(int) (number & mask)]) {
      throw new IllegalStateException("write number " + number + " is not pending");
    }
    completed[(int) (number & mask)] = true;
    long point = readPoint;
    while (point < next && completed[(int) ((point + 1) & mask)]) {
      point++;
      completed[(int) (point & mask)] = false;
    }
    if (point > readPoint) {
      readPoint = point;
      notifyAll();
    }
  }

  /**
   * Completes {@code number}, then waits until the read point reaches it: what a writer does last,
   * so that once its call returns, its own reads see its write (earlier writes still in flight
   * delay it until they complete).
   */
  void completeAndWait(long number) {
    complete(number);
    await(number);
  }

  /** Waits until every write up to {@code number} completed (the read point reached it). */
  synchronized void await(long number) {
    boolean interrupted = false;
    while (readPoint < number) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The highest write number every read may see. */
  long readPoint() {
    return readPoint;
  }

  /** The highest write number handed out. */
  synchronized long lastWritten() {
    return next;
  }
}
