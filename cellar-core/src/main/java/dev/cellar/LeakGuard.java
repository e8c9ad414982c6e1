package dev.cellar;

import dev.cellar.store.Pins;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases, and reports, the memory of a result or reader its user forgot to close: a forgotten
 * {@link Result} would otherwise pin its blocks (an L2 slot, a pooled buffer) for ever. Each guard
 * registers its owner with a {@link Cleaner}; when the owner becomes unreachable without having
 * been closed, the cleaner's thread runs the release and counts (and logs, the first time and then
 * every {@value #LOG_EVERY}th time) the leak.
 *
 * <p><b>Concurrency.</b> {@link #close()} runs on the owner's thread; the cleaner runs the release
 * at most once, either from {@code close()} or from its own thread after the owner is unreachable,
 * when nothing else can touch the released state. Cost: one registration (two small objects) per
 * guarded owner.
 */
final class LeakGuard implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(LeakGuard.class);
  private static final Cleaner CLEANER = Cleaner.create(runnable -> {
    Thread thread = new Thread(runnable, "cellar-leak-guard");
    thread.setDaemon(true);
    return thread;
  });
  private static final long LOG_EVERY = 1000;
  private static final AtomicLong LEAKED = new AtomicLong();

  private final String what;
  private final Runnable release;
  private final Pins pins;
  private final Cleaner.Cleanable cleanable;
  private volatile boolean closed;

  private LeakGuard(Object owner, String what, Runnable release, Pins pins) {
    this.what = what;
    this.release = release;
    this.pins = pins;
    this.cleanable = CLEANER.register(owner, this);
  }

  /**
   * Guards {@code owner}: {@code release} runs once, at {@link #close()} or after the owner became
   * unreachable unclosed. {@code release} must not reference the owner.
   */
  static LeakGuard of(Object owner, String what, Runnable release) {
    return new LeakGuard(owner, what, release, null);
  }

  /** Guards {@code owner}, which holds {@code pins}: they are released once (see above). */
  static LeakGuard ofPins(Object owner, String what, Pins pins) {
    return new LeakGuard(owner, what, null, pins);
  }

  /** Releases now (the owner was closed); later calls do nothing. */
  void close() {
    closed = true;
    cleanable.clean();
  }

  /** The number of owners released because they were never closed, since this JVM started. */
  static long leaked() {
    return LEAKED.get();
  }

  @Override
  public void run() {
    if (!closed) {
      long count = LEAKED.incrementAndGet();
      if (count == 1 || count % LOG_EVERY == 0) {
        LOG.warn("a {} was not closed; its pinned memory was released when it was garbage"
            + " collected ({} so far). Close results and readers (try-with-resources).", what,
            count);
      }
    }
    if (pins != null) {
      pins.release();
    } else {
      release.run();
    }
  }
}
