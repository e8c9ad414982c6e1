package dev.cellar.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The reference count shared by a buffer and every view derived from it.
 *
 * <p>Concurrency: the count is an {@code int} updated only by compare-and-set through a {@link
 * VarHandle}, so a retain or a release costs one CAS. The release that moves it from one to zero is
 * the only one that succeeds in that transition, so the {@link Recycler} runs exactly once per use.
 * Retaining or releasing at zero throws: a holder cannot resurrect a buffer, and an over-release is
 * a bug reported where it happens rather than a double free. Only a pool that keeps a slot's buffer
 * object hands it out anew ({@link #revive}), in a new generation that a holder without a reference
 * must name to retain it ({@link #tryRetain(int)}). {@link #ensureAccessible()} is a plain read
 * used on every buffer access: it catches any use after release by a caller that no longer holds a
 * reference (until a pool hands a reusable buffer out again); a caller that races its own release
 * against a read on another thread has a bug this check cannot always see.
 *
 * <p>This class is final and monomorphic on purpose, so the JIT inlines it on the hit path.
 */
public final class RefCnt {

  private static final VarHandle COUNT;

  static {
    try {
      COUNT = MethodHandles.lookup().findVarHandle(RefCnt.class, "count", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private int count = 1;

  /**
   * Counts the times a pool handed this count out anew ({@link #revive}): written before the
   * revival's compare-and-set, read after a retain's, so a retain sees the generation it counts in.
   */
  private int generation;

  private final Recycler recycler;
  private final int token;

  /** Set before the count is published to any other thread (made or revived); null if untracked. */
  private LeakRecord leak;

  private RefCnt(Recycler recycler, int token) {
    this.recycler = recycler;
    this.token = token;
  }

  /** A count for memory that needs nothing done when released (heap, or owned elsewhere). */
  public static RefCnt unpooled() {
    return new RefCnt(null, 0);
  }

  /**
   * A count whose last release calls {@code recycler.recycle(token)}, untracked by the leak
   * detector: for heap memory a lost reference merely leaves to the garbage collector.
   */
  public static RefCnt recycling(Recycler recycler, int token) {
    return new RefCnt(recycler, token);
  }

  /**
   * A count whose last release calls {@code recycler.recycle(token)}. The buffer is tracked by the
   * leak detector according to its level.
   *
   * @param description what the memory is, for leak reports (e.g. "pooled buffer of 66560 bytes")
   */
  public static RefCnt pooled(Recycler recycler, int token, String description) {
    RefCnt refCnt = new RefCnt(recycler, token);
    refCnt.leak = LeakDetector.track(refCnt, description, recycler, token);
    return refCnt;
  }

  /** Who the last release returns the memory to; null when nothing is done. */
  Recycler recycler() {
    return recycler;
  }

  /** What the last release hands the recycler (a pool's slot number). */
  int token() {
    return token;
  }

  /** The current count; zero once released. */
  public int refCnt() {
    return (int) COUNT.getVolatile(this);
  }

  /** Adds one reference. */
  public void retain() {
    retain(1);
  }

  /** Adds {@code increment} references. */
  public void retain(int increment) {
    if (increment <= 0) {
      throw new IllegalArgumentException("retain increment must be positive, was " + increment);
    }
    for (; ; ) {
      int current = (int) COUNT.getAcquire(this);
      if (current <= 0) {
        throw released("retain");
      }
      int next = current + increment;
      if (next <= 0) {
        throw new IllegalStateException("reference count overflow: " + current + " + " + increment);
      }
      if (COUNT.compareAndSet(this, current, next)) {
        if (leak != null) {
          leak.touch("retain", null);
        }
        return;
      }
    }
  }

  /**
   * Adds one reference unless the count already reached zero, for a lookup that may race with the
   * last release (a cache hit on a block being evicted).
   *
   * @return false, changing nothing, if the memory was already released
   */
  public boolean tryRetain() {
    for (; ; ) {
      int current = (int) COUNT.getAcquire(this);
      if (current <= 0) {
        return false;
      }
      if (current == Integer.MAX_VALUE) {
        throw new IllegalStateException("reference count overflow: " + current + " + 1");
      }
      if (COUNT.compareAndSet(this, current, current + 1)) {
        if (leak != null) {
          leak.touch("retain", null);
        }
        return true;
      }
    }
  }

  /**
   * Drops one reference; the last release returns the memory.
   *
   * @return true if this release dropped the count to zero
   * @throws IllegalStateException if the count is already zero
   */
  public boolean release() {
    for (; ; ) {
      int current = (int) COUNT.getAcquire(this);
      if (current <= 0) {
        throw released("release");
      }
      if (COUNT.compareAndSet(this, current, current - 1)) {
        if (current == 1) {
          deallocate();
          return true;
        }
        if (leak != null) {
          leak.touch("release", null);
        }
        return false;
      }
    }
  }

  /**
   * Gives a released count its first reference again, in a new {@link #generation()}, for a pool
   * that keeps the buffer object of a slot and hands it out anew: called by the pool that just took
   * the slot, whose earlier holders have all released it (a holder without a reference retains it
   * only with the generation it knew, {@link #tryRetain(int)}). At the PARANOID leak level the
   * count is tracked afresh for each use ({@code trackedAs} its description; null for heap memory,
   * untracked), so a test's leak check finds a use still held; at lower levels it is not sampled,
   * since the pool keeps the buffer reachable and the detector's cleaner, its only way to report
   * there, could never see it go ({@link LeakDetector#trackKept}).
   *
   * @throws IllegalStateException if the count is not zero
   */
  void revive(String trackedAs) {
    if (refCnt() != 0) {
      throw new IllegalStateException("only a released count is revived; refCnt " + refCnt());
    }
    generation++;
    leak = trackedAs == null ? null : LeakDetector.trackKept(this, trackedAs, recycler, token);
    if (!COUNT.compareAndSet(this, 0, 1)) {
      throw new IllegalStateException("a count being revived was retained");
    }
  }

  /**
   * How many times the buffer was handed out anew (0 for a count never revived): what a holder that
   * keeps the buffer without a reference records, to {@link #tryRetain(int)} it later. Read by a
   * holder of a reference.
   */
  public int generation() {
    return generation;
  }

  /**
   * As {@link #tryRetain()}, and only while the buffer is still in generation {@code expected}: a
   * cache entry looked up as it is evicted must not take the slot's next use for its block when the
   * pool revived the count meanwhile.
   *
   * @return false, changing nothing the caller owns, if the memory was released or handed out anew
   */
  public boolean tryRetain(int expected) {
    if (!tryRetain()) {
      return false;
    }
    if (generation == expected) {
      return true;
    }
    release();
    return false;
  }

  /** Records an access point for leak reports (PARANOID only); free otherwise. */
  public void touch(Object hint) {
    if (leak != null) {
      leak.touch("touch", hint);
    }
  }

  /** Throws {@link IllegalStateException} if the memory was released. */
  public void ensureAccessible() {
    if (count <= 0) {
      throw released("access");
    }
  }

  private void deallocate() {
    boolean mine = leak == null || leak.close();
    if (mine && recycler != null) {
      recycler.recycle(token);
    }
  }

  private IllegalStateException released(String operation) {
    String message = operation + " of a released buffer (refCnt 0)";
    if (leak != null) {
      message += "; buffer history: " + leak.history();
    }
    return new IllegalStateException(message);
  }
}
