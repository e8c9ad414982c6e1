package dev.cellar.hfile;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A number of heap bytes that holders of optional structures share: a holder reserves the bytes a
 * structure takes before keeping it and releases them when it lets it go, and a reservation that
 * would pass the limit is refused, the structure then not kept. Thread-safe (one atomic counter).
 *
 * <p>{@link #LEFT_OUT_SEEK_INDEXES} bounds the sparse seek indexes that open files keep for the
 * blocks their cache leaves out ({@link LeftOutSeekIndexes}), which would otherwise grow with the
 * data read (a 64th of it at most) rather than with the cache: by default a 32nd of the JVM's
 * largest heap, or {@code -Dcellar.hfile.leftOutSeekIndexBytes=N} bytes.
 */
final class HeapBudget {

  /** The budget of every open file's left-out seek indexes together. */
  static final HeapBudget LEFT_OUT_SEEK_INDEXES =
      new HeapBudget(
          Long.getLong(
              "cellar.hfile.leftOutSeekIndexBytes", Runtime.getRuntime().maxMemory() / 32));

  private final long limit;
  private final AtomicLong used = new AtomicLong();

  /** A budget of {@code limit} bytes, none used. */
  HeapBudget(long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("a heap budget of " + limit + " bytes");
    }
    this.limit = limit;
  }

  /**
   * Takes {@code bytes} more (or gives back {@code -bytes}) if the total stays within the limit;
   * returns whether it did. Giving back always succeeds.
   */
  boolean tryReserve(long bytes) {
    while (true) {
      long current = used.get();
      long next = current + bytes;
      if (bytes > 0 && next > limit) {
        return false;
      }
      if (used.compareAndSet(current, next)) {
        return true;
      }
    }
  }

  /** Gives back {@code bytes} reserved before. */
  void release(long bytes) {
    used.addAndGet(-bytes);
  }

  /** The bytes reserved now. */
  long used() {
    return used.get();
  }

  /** The most bytes that may be reserved. */
  long limit() {
    return limit;
  }
}
