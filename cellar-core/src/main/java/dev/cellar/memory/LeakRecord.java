package dev.cellar.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The leak detector's record of one tracked buffer: where it was allocated, where it was last
 * touched, and whether it was released.
 *
 * <p>Concurrency: the state moves once from OPEN to RELEASED (last release), LEAKED (its buffer
 * became unreachable while open; run by the cleaner thread) or REPORTED (a test's leak check gave
 * up on it), by CAS, so exactly one of those paths returns the memory to its recycler. The touch
 * history is guarded by the record's monitor; it is only written when the level is PARANOID.
 *
 * <p>Memory: the record must not reference the buffer or its {@link RefCnt}, or the cleaner could
 * never see them become unreachable; it holds only the recycler and token needed to take the memory
 * back.
 */
final class LeakRecord implements Runnable {

  private static final int OPEN = 0;
  private static final int RELEASED = 1;
  private static final int LEAKED = 2;
  private static final int REPORTED = 3;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(LeakRecord.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** How many of the most recent accesses are kept for a leak report. */
  static final int MAX_TOUCHES = 8;

  private final long id;
  private final String description;
  private final Throwable allocationSite;
  private final boolean recordTouches;
  private final Recycler recycler;
  private final int token;

  /** The recent accesses, recorded only at PARANOID; null otherwise. */
  private final ArrayDeque<Throwable> touches;

  private int droppedTouches;
  private int state = OPEN;
  private Cleaner.Cleanable cleanable;

  LeakRecord(long id, String description, boolean recordTouches, Recycler recycler, int token) {
    this.id = id;
    this.description = description;
    this.allocationSite = new Throwable("allocated here");
    this.recordTouches = recordTouches;
    this.touches = recordTouches ? new ArrayDeque<>() : null;
    this.recycler = recycler;
    this.token = token;
  }

  long id() {
    return id;
  }

  void attach(Cleaner.Cleanable cleanable) {
    this.cleanable = cleanable;
  }

  boolean isOpen() {
    return (int) STATE.getVolatile(this) == OPEN;
  }

  void touch(String action, Object hint) {
    if (!recordTouches) {
      return;
    }
    Throwable site = new Throwable(hint == null ? action : action + " (" + hint + ")");
    synchronized (this) {
      if (touches.size() == MAX_TOUCHES) {
        touches.removeFirst();
        droppedTouches++;
      }
      touches.addLast(site);
    }
  }

  /**
   * Marks the buffer released by its last reference holder. Returns true if the caller must now
   * return the memory (false if the leak path already took it back).
   */
  boolean close() {
    if (!STATE.compareAndSet(this, OPEN, RELEASED)) {
      return false;
    }
    LeakDetector.forget(this);
    cleanable.clean();
    return true;
  }

  /** Gives up on a buffer a test left outstanding: it will not be reported or recycled again. */
  void markReported() {
    if (STATE.compareAndSet(this, OPEN, REPORTED)) {
      LeakDetector.forget(this);
    }
  }

  /** Cleaner action: the buffer became unreachable; if it was never released, that is a leak. */
  @Override
  public void run() {
    if (STATE.compareAndSet(this, OPEN, LEAKED)) {
      LeakDetector.reportGarbageCollectedLeak(this);
      if (recycler != null) {
        recycler.recycle(token);
      }
    }
  }

  /** The allocation site and recent accesses, most recent last, for error messages. */
  String history() {
    StringBuilder out =
        new StringBuilder(description).append(" (leak record #").append(id).append(")");
    List<Throwable> recent;
    int dropped;
    synchronized (this) {
      recent = touches == null ? List.of() : List.copyOf(touches);
      dropped = droppedTouches;
    }
    if (dropped > 0) {
      out.append("\n  ").append(dropped).append(" older accesses not kept");
    }
    for (Throwable touch : recent) {
      appendSite(out, touch);
    }
    appendSite(out, allocationSite);
    return out.toString();
  }

  private static void appendSite(StringBuilder out, Throwable site) {
    out.append("\n  ").append(site.getMessage()).append(':');
    StackTraceElement[] frames = site.getStackTrace();
    int shown = 0;
    for (StackTraceElement frame : frames) {
      if (frame.getClassName().startsWith(LeakRecord.class.getPackageName() + ".RefCnt")
          || frame.getClassName().equals(LeakRecord.class.getName())
          || frame.getClassName().equals(LeakDetector.class.getName())) {
        continue;
      }
      out.append("\n    at ").append(frame);
      if (++shown == 12) {
        out.append("\n    ...");
        break;
      }
    }
  }
}
