package dev.cellar.store;

import java.io.IOException;

/**
 * The rows of one scan, one at a time, into a {@link CollectedRow}: a region's scanner, or a
 * server's scanner through Cellar's client. Not thread-safe: one reader thread.
 */
public interface RowStream extends AutoCloseable {

  /** Appends the next row's cells to {@code into}; false, appending nothing, at the end. */
  boolean next(CollectedRow into) throws IOException;

  /**
   * As {@link #next(CollectedRow)}, giving up between rows once {@link System#nanoTime()} passes
   * {@code deadlineNanos} ({@link #stoppedAtDeadline()} then says so). A stream that cannot stop
   * early reads on to the next row.
   */
  default boolean next(CollectedRow into, long deadlineNanos) throws IOException {
    return next(into);
  }

  /** Whether the last timed {@link #next(CollectedRow, long)} stopped at its deadline. */
  default boolean stoppedAtDeadline() {
    return false;
  }

  /**
   * After a call that {@link #stoppedAtDeadline()}: the key of the last row it went past (a
   * copy), or null.
   */
  default byte[] lastSkippedRow() {
    return null;
  }

  /** Ends the scan and drops what it holds. Idempotent. */
  @Override
  void close();
}
