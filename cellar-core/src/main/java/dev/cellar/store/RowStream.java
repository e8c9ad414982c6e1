package dev.cellar.store;

import java.io.IOException;

/**
 * The rows of one scan, one at a time, into a {@link CollectedRow}: a region's scanner, or a
 * server's scanner through Cellar's client. Not thread-safe: one reader thread.
 */
public interface RowStream extends AutoCloseable {

  /** Appends the next row's cells to {@code into}; false, appending nothing, at the end. */
  boolean next(CollectedRow into) throws IOException;

  /** Ends the scan and drops what it holds. Idempotent. */
  @Override
  void close();
}
