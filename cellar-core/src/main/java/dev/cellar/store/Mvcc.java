package dev.cellar.store;

import java.util.TreeSet;

/**
 * Multi-version concurrency control for one region, as HBase's MultiVersionConcurrencyControl: a
 * write takes the next write number ({@link #begin()}), stamps its cells with it, and {@link
 * #complete}s it once they are all in the MemStore. The read point is the highest number up to
 * which every write has completed; a read sees only cells at or below the read point it started
 * with, so it never sees half of a row's mutation, nor a later write while an earlier one is
 * still applying.
 *
 * <p>Concurrency: {@link #begin()} and {@link #complete} take this object's monitor for a few
 * instructions (hand out a number and note it pending; drop it and move the read point past every
 * completed number); {@link #readPoint()} is a volatile read.
 */
final class Mvcc {

  private final TreeSet<Long> pending = new TreeSet<>();
  private long next;
  private volatile long readPoint;

  /** Starts after {@code lastWritten}, the highest number already durable (files, replay). */
  Mvcc(long lastWritten) {
    this.next = lastWritten;
    this.readPoint = lastWritten;
  }

  /** A new write number, pending until {@link #complete}d. */
  synchronized long begin() {
    long number = ++next;
    pending.add(number);
    return number;
  }

  /** Marks {@code number} applied and advances the read point as far as it can. */
  synchronized void complete(long number) {
    if (!pending.remove(number)) {
      throw new IllegalStateException("write number " + number + " is not pending");
    }
    long completedUpTo = pending.isEmpty() ? next : pending.first() - 1;
    if (completedUpTo > readPoint) {
      readPoint = completedUpTo;
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
