package dev.cellar.row;

import java.io.IOException;

/**
 * Where a row reader's single rows come from: the embedded table's region, or a server (Cellar's
 * client). Each read appends the row a query asks for to the reader's {@link CollectedRow}: views
 * of cells in memory the holder pins (cached blocks, a response's cell block) or copies. Keeps
 * nothing pinned between reads. Not thread-safe: one reader thread.
 *
 * @param <Q> the query (the public API's Get)
 */
public interface PointReads<Q> extends AutoCloseable {

  /** Appends the row {@code query} asks for (nothing for a missing row) to {@code into}. */
  void read(Q query, CollectedRow into) throws IOException;

  /** Drops what the reads keep between calls. */
  @Override
  void close();
}
