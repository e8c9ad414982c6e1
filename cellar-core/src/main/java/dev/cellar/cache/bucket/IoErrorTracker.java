package dev.cellar.cache.bucket;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Tracks engine errors over time, as HBase's bucket cache does: an error starts a window, a success
 * closes it, and errors that last longer than the tolerated duration without a success in between
 * mean the engine is broken and the cache must be disabled. Lock-free.
 */
final class IoErrorTracker {

  private static final long NONE = Long.MIN_VALUE;

  private final long toleratedNanos;
  private final AtomicLong firstErrorNanos = new AtomicLong(NONE);

  IoErrorTracker(long toleratedMillis) {
    this.toleratedNanos = toleratedMillis * 1_000_000;
  }

  void success() {
    if (firstErrorNanos.get() != NONE) {
      firstErrorNanos.set(NONE);
    }
  }

  /** Records an error at {@code nowNanos}; true if errors have now lasted beyond the tolerance. */
  boolean failure(long nowNanos) {
    firstErrorNanos.compareAndSet(NONE, nowNanos);
    long first = firstErrorNanos.get();
    return first != NONE && nowNanos - first > toleratedNanos;
  }
}
