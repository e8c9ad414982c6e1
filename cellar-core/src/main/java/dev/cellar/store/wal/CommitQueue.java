package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.metrics.LatencyHistogram;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off between appenders and the sync thread: assigns sequence ids, queues entries in id
 * order, and publishes what the sync thread achieved (the durable watermark, finished rolls, a
 * failure) to the appenders waiting for it.
 *
 * <p><b>Concurrency.</b> One lock guards every field. An appender holds it to take an id and add
 * its entry to the pending list in the same step, so that list order is id order and the file is
 * written in id order; later it waits on {@code progressed}. The sync thread holds it to swap the
 * pending list for the empty list of its previous batch ({@link #take}) and to publish a batch's
 * outcome ({@link #published}), which wakes every waiter at once: group commit. Checking and sizing
 * an entry happen before the lock, encoding and I/O on the sync thread outside it.
 *
 * <p><b>Durability.</b> {@code durableSequenceId} moves only after a successful force, to the id of
 * the last entry written before it; since batches are taken whole and written in order, every
 * written entry up to that id is on stable storage, in that segment or an earlier one. A failure is
 * kept for good: appenders waiting for ids above the watermark and every later append fail with it.
 * A failed {@code fsync} may have dropped dirty pages and a retry could report success without
 * them, so nothing written after a failure is ever acknowledged; the log must be reopened, which
 * recovers from what is really on disk.
 */
final class CommitQueue {

  /** What the sync thread takes in one go. */
  record Batch(
      List<PendingEntry> entries,
      boolean forceRequested,
      boolean fsyncRequested,
      long rollsRequested,
      boolean closing) {}

  private final Path directory;
  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when an entry is queued, a roll is requested or the log closes. */
  private final Condition workArrived = lock.newCondition();

  /** Signalled when the watermark moves, a roll completes or the log fails. */
  private final Condition progressed = lock.newCondition();

  private List<PendingEntry> pending = new ArrayList<>();

  /** The list of the batch taken last, which the sync thread is done with at the next take. */
  private List<PendingEntry> spare = new ArrayList<>();

  private boolean forceRequested;
  private boolean fsyncRequested;
  private long nextSequenceId;
  private long durableSequenceId;
  private long rollsRequested;
  private long rollsCompleted;
  private boolean closing;
  private IOException failure;
  private long entriesWritten;

  /** The time of each force; recorded by the sync thread, read by anyone. */
  private final LatencyHistogram forceTimes = new LatencyHistogram();

  private long bytesWritten;
  private long batches;
  private long forces;
  private long rolls;

  CommitQueue(Path directory, long nextSequenceId) {
    this.directory = directory;
    this.nextSequenceId = nextSequenceId;
    this.durableSequenceId = nextSequenceId - 1;
  }

  /**
   * Assigns the next sequence id to an entry that is not written.
   *
   * @throws IOException if the log failed
   * @throws IllegalStateException if the log is closed
   */
  long assignUnwritten() throws IOException {
    lock.lock();
    try {
      checkWritable();
      return nextSequenceId++;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Assigns the next sequence id to an entry of {@code cells} and queues it for the sync thread.
   *
   * @param waitsForForce whether the entry's appender waits for a force
   * @param fsync whether that force must be an fsync ({@link Durability#FSYNC_WAL}) rather than
   *     what {@link Durability#SYNC_WAL} waits for
   * @throws IOException if the log failed
   * @throws IllegalStateException if the log is closed
   */
  long enqueue(
      String table,
      byte[] tableName,
      Cell[] cells,
      int payloadLength,
      long latestTimestamp,
      boolean waitsForForce,
      boolean fsync)
      throws IOException {
    lock.lock();
    try {
      checkWritable();
      long sequenceId = nextSequenceId++;
      pending.add(
          new PendingEntry(table, tableName, sequenceId, cells, payloadLength, latestTimestamp));
      forceRequested |= waitsForForce;
      fsyncRequested |= fsync;
      workArrived.signal();
      return sequenceId;
    } finally {
      lock.unlock();
    }
  }

  private void checkWritable() throws IOException {
    if (failure != null) {
      throw new IOException(
          "WAL "
              + directory
              + " failed earlier and accepts no more entries;"
              + " reopen it to recover: "
              + failure.getMessage(),
          failure);
    }
    if (closing) {
      throw new IllegalStateException("WAL " + directory + " is closed");
    }
  }

  /**
   * Waits until the entry {@code sequenceId} is on stable storage.
   *
   * @throws IOException if the log failed before forcing it
   * @throws InterruptedIOException if interrupted while waiting; the entry may still be forced
   */
  void awaitDurable(long sequenceId) throws IOException {
    lock.lock();
    try {
      while (durableSequenceId < sequenceId) {
        if (failure != null) {
          throw new IOException(
              "WAL "
                  + directory
                  + ": entry "
                  + sequenceId
                  + " is not durable, the log failed: "
                  + failure.getMessage(),
              failure);
        }
        progressed.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "interrupted waiting for WAL entry "
              + sequenceId
              + " to be forced; it may still become durable");
    } finally {
      lock.unlock();
    }
  }

  /**
   * Asks the sync thread to roll and waits until it did (or found nothing to roll, or closed).
   *
   * @throws IOException if the log failed
   * @throws IllegalStateException if the log is closed
   * @throws InterruptedIOException if interrupted while waiting; the roll may still happen
   */
  void roll() throws IOException {
    lock.lock();
    try {
      checkWritable();
      long target = ++rollsRequested;
      workArrived.signal();
      while (rollsCompleted < target) {
        if (failure != null) {
          throw new IOException(
              "WAL " + directory + " failed before rolling: " + failure.getMessage(), failure);
        }
        progressed.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the WAL to roll");
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes everything queued, waiting for work first: at most {@code timeoutNanos}, or without limit
   * if it is negative. The returned batch may be empty when the wait timed out. Its list belongs to
   * the caller until the next call, which reuses it for later entries; the caller clears it once
   * written, so the batch's cells are not kept alive meanwhile.
   */
  Batch take(long timeoutNanos) throws InterruptedException {
    lock.lock();
    try {
      long remaining = timeoutNanos;
      while (pending.isEmpty() && rollsRequested == rollsCompleted && !closing) {
        if (timeoutNanos < 0) {
          workArrived.await();
        } else if (remaining > 0) {
          remaining = workArrived.awaitNanos(remaining);
        } else {
          break;
        }
      }
      Batch batch = new Batch(pending, forceRequested, fsyncRequested, rollsRequested, closing);
      spare.clear();
      pending = spare;
      spare = batch.entries();
      forceRequested = false;
      fsyncRequested = false;
      return batch;
    } finally {
      lock.unlock();
    }
  }

  /** The lowest id an entry still to be written can have: where a new segment starts. */
  long lowestUnwrittenId() {
    lock.lock();
    try {
      return pending.isEmpty() ? nextSequenceId : pending.getFirst().sequenceId();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Publishes a written batch. With {@code forced}, every entry up to {@code lastWrittenId} is now
   * durable and its waiters return.
   */
  void published(int entries, long bytes, boolean forced, long lastWrittenId) {
    lock.lock();
    try {
      if (entries > 0) {
        entriesWritten += entries;
        bytesWritten += bytes;
        batches++;
      }
      if (forced) {
        forces++;
        durableSequenceId = Math.max(durableSequenceId, lastWrittenId);
      }
      progressed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Publishes that the rolls requested up to {@code target} are done; {@code rolled} if one was.
   */
  void rollsCompleted(long target, boolean rolled) {
    lock.lock();
    try {
      rollsCompleted = Math.max(rollsCompleted, target);
      if (rolled) {
        rolls++;
      }
      progressed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Fails the log for good with {@code cause}: queued entries are dropped, waiters fail. */
  void fail(IOException cause) {
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      pending.clear();
      progressed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Stops accepting entries; the sync thread writes what is queued, forces it and stops. */
  void close() {
    lock.lock();
    try {
      closing = true;
      workArrived.signal();
    } finally {
      lock.unlock();
    }
  }

  /** The failure that stopped the log, or {@code null}. */
  IOException failure() {
    lock.lock();
    try {
      return failure;
    } finally {
      lock.unlock();
    }
  }

  /** The highest sequence id whose entry, and every written entry before it, is durable. */
  long durableSequenceId() {
    lock.lock();
    try {
      return durableSequenceId;
    } finally {
      lock.unlock();
    }
  }

  /** The highest sequence id assigned so far. */
  long lastAssignedSequenceId() {
    lock.lock();
    try {
      return nextSequenceId - 1;
    } finally {
      lock.unlock();
    }
  }

  LatencyHistogram forceTimes() {
    return forceTimes;
  }

  WalStats stats() {
    lock.lock();
    try {
      return new WalStats(entriesWritten, bytesWritten, batches, forces, rolls);
    } finally {
      lock.unlock();
    }
  }
}
