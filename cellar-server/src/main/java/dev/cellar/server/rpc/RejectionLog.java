package dev.cellar.server.rpc;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connections the server closed for what they sent (a bad preamble or header, a malformed or
 * oversized frame), logged at WARN so that an operator sees them at the default level, at most one
 * line a second: a flood of bad connections counts the others into the next line instead of
 * flooding the log. Thread-safe: event loops of every connection log through it.
 */
final class RejectionLog {

  private static final Logger LOG = LoggerFactory.getLogger(RejectionLog.class);
  private static final long INTERVAL_NANOS = 1_000_000_000L;

  private final AtomicLong lastLine = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);
  private final AtomicLong unlogged = new AtomicLong();

  /**
   * Records that the connection from {@code remote} was closed for {@code reason}; returns whether
   * a line was logged (else it is counted into the next).
   */
  boolean rejected(Object remote, String reason) {
    long now = System.nanoTime();
    long last = lastLine.get();
    if (now - last < INTERVAL_NANOS || !lastLine.compareAndSet(last, now)) {
      unlogged.incrementAndGet();
      return false;
    }
    long others = unlogged.getAndSet(0);
    if (others == 0) {
      LOG.warn("closed the connection from {}: {}", remote, reason);
    } else {
      LOG.warn(
          "closed the connection from {}: {} (and {} other connections for what they sent since"
              + " the last such line)",
          remote,
          reason,
          others);
    }
    return true;
  }

  /** The rejections not logged yet, which the next line counts. */
  long unlogged() {
    return unlogged.get();
  }
}
