package dev.cellar.row;

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

  /**
   * Appends the next part of a row to {@code into}: the rest of the row the previous call stopped
   * inside ({@link #stoppedInRow()}), else the next row, until the row ends or {@code budget} is
   * spent (see {@link RowBudget}). The part that ends a row a previous call stopped inside may
   * append nothing. A stream that cannot stop inside rows reads whole rows, as does a scan whose
   * filter needs them.
   *
   * @return true if a part was read; false, appending nothing, at the end of the scan or at the
   *     budget's deadline ({@link #stoppedAtDeadline()})
   */
  default boolean nextPart(CollectedRow into, RowBudget budget) throws IOException {
    return budget.timed() ? next(into, budget.deadlineNanos()) : next(into);
  }

  /** Whether the last {@link #nextPart} stopped inside its row, which the next read goes on in. */
  default boolean stoppedInRow() {
    return false;
  }

  /** Whether the last timed call stopped at its deadline. */
  default boolean stoppedAtDeadline() {
    return false;
  }

  /**
   * After a timed call: the key of the last row it examined (a copy), or null. After one that
   * {@link #stoppedAtDeadline()} between rows, every row up to it has been scanned.
   */
  default byte[] lastSkippedRow() {
    return null;
  }

  /** Ends the scan and drops what it holds. Idempotent. */
  @Override
  void close();
}
