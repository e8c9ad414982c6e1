package dev.cellar;

import dev.cellar.memory.Buf;
import dev.cellar.row.Pins;
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
 * <p><b>Memory.</b> One guard and one cleaner registration per guarded owner. A result's guard is
 * the smallest that holds what it releases: the one buffer most Gets pin, else the result's {@link
 * Pins}; a reader's guard runs the reader's own release.
 *
 * <p><b>Concurrency.</b> {@link #close()} runs on the owner's thread; the cleaner runs the release
 * at most once, either from {@code close()} or from its own thread after the owner is unreachable,
 * when nothing else can touch the released state. The guard is registered once it is whole, so the
 * cleaner's thread sees what it releases.
 */
abstract sealed class LeakGuard implements Runnable permits LeakGuard.Pinning, LeakGuard.OfRelease {

  private static final Logger LOG = LoggerFactory.getLogger(LeakGuard.class);
  private static final Cleaner CLEANER =
      Cleaner.create(
          runnable -> {
            Thread thread = new Thread(runnable, "cellar-leak-guard");
            thread.setDaemon(true);
            return thread;
          });
  private static final long LOG_EVERY = 1000;
  private static final AtomicLong LEAKED = new AtomicLong();

  private Cleaner.Cleanable cleanable;
  private volatile boolean closed;

  /**
   * Guards {@code owner}: {@code release} runs once, at {@link #close()} or after the owner became
   * unreachable unclosed. {@code release} must not reference the owner.
   */
  static LeakGuard of(Object owner, String what, Runnable release) {
    return register(owner, new OfRelease(what, release));
  }

  /** Guards a result that holds one reference to {@code buf}, released once (see above). */
  static Pinning ofBuf(Result owner, Buf buf) {
    return register(owner, new OfBuf(buf));
  }

  /** Guards a result that holds {@code pins}: they are released once (see above). */
  static Pinning ofPins(Result owner, Pins pins) {
    return register(owner, new OfPins(pins));
  }

  private static <G extends LeakGuard> G register(Object owner, G guard) {
    ((LeakGuard) guard).cleanable = CLEANER.register(owner, guard);
    return guard;
  }

  /** Releases now (the owner was closed); later calls do nothing. */
  final void close() {
    closed = true;
    cleanable.clean();
  }

  final boolean isClosed() {
    return closed;
  }

  /** The number of owners released because they were never closed, since this JVM started. */
  static long leaked() {
    return LEAKED.get();
  }

  /** What the owner is, for the leak's log line. */
  abstract String what();

  /** Gives back what the owner held. */
  abstract void release();

  @Override
  public final void run() {
    if (!closed) {
      long count = LEAKED.incrementAndGet();
      if (count == 1 || count % LOG_EVERY == 0) {
        LOG.warn(
            "a {} was not closed; its pinned memory was released when it was garbage"
                + " collected ({} so far). Close results and readers (try-with-resources).",
            what(),
            count);
      }
    }
    release();
  }

  /** A result's guard, which knows how many buffers it keeps pinned. */
  abstract static sealed class Pinning extends LeakGuard permits OfBuf, OfPins {

    /** The block and chunk references held; zero once closed. */
    abstract int pinnedBuffers();

    @Override
    final String what() {
      return "Result";
    }
  }

  private static final class OfBuf extends Pinning {
    private final Buf buf;

    OfBuf(Buf buf) {
      this.buf = buf;
    }

    @Override
    int pinnedBuffers() {
      return isClosed() ? 0 : 1;
    }

    @Override
    void release() {
      buf.release();
    }
  }

  private static final class OfPins extends Pinning {
    private final Pins pins;

    OfPins(Pins pins) {
      this.pins = pins;
    }

    @Override
    int pinnedBuffers() {
      return pins.size();
    }

    @Override
    void release() {
      pins.release();
    }
  }

  private static final class OfRelease extends LeakGuard {
    private final String what;
    private final Runnable release;

    OfRelease(String what, Runnable release) {
      this.what = what;
      this.release = release;
    }

    @Override
    String what() {
      return what;
    }

    @Override
    void release() {
      release.run();
    }
  }
}
