package dev.cellar.store;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The row locks of a region: {@value #STRIPES} striped locks, a row taking the stripe its hash
 * picks. A write holds the stripes of its rows while it takes its write number and queues its log
 * entry, so that two writes of one row take write numbers and log ids in the same order; it
 * releases them before it copies its cells into the MemStore and before it waits for a log sync.
 *
 * <p><b>Deadlock.</b> A batch locks the stripes of all its rows at once, each stripe once, in
 * ascending stripe order, and only then starts; every holder of several stripes took them in that
 * order, so no two writers can each wait for a stripe the other holds. Blocking acquisition is
 * therefore safe, and a batch is never split for want of a lock (HBase's try-lock and mini-batch
 * split is a way around lock order it does not control). Rows of one batch that share a stripe, the
 * same row twice included, take it once.
 *
 * <p><b>Last writes.</b> Each stripe remembers the write number of the last write taken under it
 * ({@link #recordWrite}), read and written only by the stripe's holder. A read-modify-write ({@code
 * checkAndMutate}) holding the stripe waits for that number to complete before it reads, so it sees
 * every earlier write of its row even though those writers released the stripe before applying and
 * syncing.
 *
 * <p><b>Memory.</b> A held set is a 256-bit map in a {@code long[4]}; locking allocates nothing
 * else.
 */
final class RowLocks {

  static final int STRIPES = 256;

  private static final int WORDS = STRIPES / Long.SIZE;

  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  /** lastWrite[s] is guarded by locks[s]. */
  private final long[] lastWrite = new long[STRIPES];

  RowLocks() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The stripe of {@code row}. */
  static int stripeOf(byte[] row) {
    return Arrays.hashCode(row) & (STRIPES - 1);
  }

  /** Locks the stripe of {@code row}; pass the result to {@link #unlock}. */
  long[] lock(byte[] row) {
    long[] held = new long[WORDS];
    int stripe = stripeOf(row);
    held[stripe >>> 6] |= 1L << stripe;
    locks[stripe].lock();
    return held;
  }

  /** Locks the stripes of every row of {@code batch}, in ascending order; pass the result on. */
  long[] lock(List<RowMutation> batch) {
    long[] held = new long[WORDS];
    for (RowMutation mutation : batch) {
      int stripe = stripeOf(mutation.row());
      held[stripe >>> 6] |= 1L << stripe;
    }
    int locked = 0;
    try {
      for (int word = 0; word < WORDS; word++) {
        for (long bits = held[word]; bits != 0; bits &= bits - 1) {
          locks[word * Long.SIZE + Long.numberOfTrailingZeros(bits)].lock();
          locked++;
        }
      }
    } catch (RuntimeException | Error e) {
      unlockFirst(held, locked);
      throw e;
    }
    return held;
  }

  /** Unlocks the stripes {@link #lock} returned. */
  void unlock(long[] held) {
    unlockFirst(held, Integer.MAX_VALUE);
  }

  private void unlockFirst(long[] held, int count) {
    int left = count;
    for (int word = 0; word < WORDS && left > 0; word++) {
      for (long bits = held[word]; bits != 0 && left > 0; bits &= bits - 1, left--) {
        locks[word * Long.SIZE + Long.numberOfTrailingZeros(bits)].unlock();
      }
    }
  }

  /** Records write {@code number} as the last applied under each stripe of {@code held}. */
  void recordWrite(long[] held, long number) {
    for (int word = 0; word < WORDS; word++) {
      for (long bits = held[word]; bits != 0; bits &= bits - 1) {
        lastWrite[word * Long.SIZE + Long.numberOfTrailingZeros(bits)] = number;
      }
    }
  }

  /** The highest write number recorded under the stripes of {@code held}. */
  long lastWrite(long[] held) {
    long last = 0;
    for (int word = 0; word < WORDS; word++) {
      for (long bits = held[word]; bits != 0; bits &= bits - 1) {
        last = Math.max(last, lastWrite[word * Long.SIZE + Long.numberOfTrailingZeros(bits)]);
      }
    }
    return last;
  }
}
