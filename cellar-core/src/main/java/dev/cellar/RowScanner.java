package dev.cellar;

import dev.cellar.store.CollectedRow;
import dev.cellar.store.RowStream;
import java.io.IOException;

/**
 * The rows of a {@link Scan} without allocating per row: the zero-garbage counterpart of {@link
 * Table#scanner(Scan)}, as {@link RowReader} is of {@link Table#get(Get)}. Each {@link #nextView()}
 * reads the next row into this scanner's one {@link RowView}, whose cells are views into cached
 * blocks, valid until the next call or {@link #close()}.
 *
 * <pre>{@code
 * byte[] value = new byte[4096];
 * try (RowScanner scanner = table.rowScanner(new Scan().withStartRow(from).withStopRow(to))) {
 *   for (RowView row = scanner.nextView(); row != null; row = scanner.nextView()) {
 *     int length = row.copyValue(family, qualifier, value, 0);   // copies nothing else
 *   }
 * }
 * }</pre>
 *
 * <p><b>Cost.</b> A row of cached blocks allocates nothing on the heap once the scanner's row holder
 * has grown to the largest row: the row's cells are flyweight views reused from row to row, and
 * the scan's cursors, merge heap, matcher and seek keys are the scanner's own. Cells of the
 * MemStore and of delta-encoded blocks are copied into the holder's reused heap arena. A filter
 * allocates what its own calls allocate.
 *
 * <p><b>Through Cellar's client</b> ({@code Cellar.connect}) the rows come from the server's
 * scanner a batch at a time ({@link Scan#setCaching}) and each view's cells are decoded in place
 * in its batch's pooled cell block, which stays pinned while a row of it is in view; nothing is
 * copied per row, while each batch's call allocates its messages.
 *
 * <p><b>Memory.</b> Between calls the scanner pins the blocks its view's cells lie in (one or two
 * for most rows) and the data block its cursor is on in each file; each call releases the blocks
 * the scan moved past. A block the next row lies in too stays pinned from row to row rather than
 * being released and taken again. The scan keeps its files (and the MemStore segments it reads)
 * until it is closed. A scanner that becomes unreachable unclosed is closed, and reported, by a
 * cleaner.
 *
 * <p>Not thread-safe: one thread reads a scanner.
 */
public final class RowScanner implements AutoCloseable {

  private final RowStream scanner;
  private final CollectedRow row;
  private final RowView view;
  private final LeakGuard guard;
  private long remaining;
  private boolean closed;

  /** A scanner of {@code scanner}'s rows up to {@code limit}, closing it with itself. */
  RowScanner(RowStream scanner, long limit) {
    CollectedRow held = new CollectedRow();
    this.scanner = scanner;
    this.row = held;
    this.view = new RowView(held, "row scanner");
    this.remaining = limit;
    this.guard = LeakGuard.of(this, "RowScanner", () -> {
      held.clear();
      scanner.close();
    });
  }

  /**
   * Reads the next row into this scanner's view, dropping the previous row; null at the end of the
   * scan (or once the scan's limit is reached). The view's cells are valid until the next call or
   * {@link #close()}.
   *
   * @throws IllegalStateException if the scanner was closed
   */
  public RowView nextView() throws IOException {
    return read(false, 0);
  }

  /**
   * As {@link #nextView()}, but gives up, returning null, once {@code deadlineNanos} (a {@link
   * System#nanoTime()} value) has passed after the scan skipped a row (one its filter or deletes
   * left empty); {@link #stoppedAtDeadline()} then tells that rows may remain, and the next call
   * goes on from where this one stopped. A filter that rejects millions of rows thus cannot hold
   * the caller long past its deadline. The deadline is checked between rows.
   *
   * @throws IllegalStateException if the scanner was closed
   */
  public RowView nextView(long deadlineNanos) throws IOException {
    return read(true, deadlineNanos);
  }

  /** Whether the last {@link #nextView(long)} returned null because its deadline passed. */
  public boolean stoppedAtDeadline() {
    return scanner.stoppedAtDeadline();
  }

  /**
   * After a call that {@link #stoppedAtDeadline()}: the key of the last row the scan went past (a
   * copy), so that every row up to it has been scanned (HBase's scan cursor).
   */
  public byte[] lastSkippedRow() {
    return scanner.lastSkippedRow();
  }

  private RowView read(boolean timed, long deadlineNanos) throws IOException {
    if (closed) {
      throw new IllegalStateException("the row scanner was closed");
    }
    row.clearCarryingPins();
    try {
      if (remaining <= 0) {
        return null;
      }
      boolean found = timed ? scanner.next(row, deadlineNanos) : scanner.next(row);
      if (!found) {
        return null;
      }
      remaining--;
      return view;
    } finally {
      row.releaseCarriedPins();
    }
  }

  /**
   * Drops the view's pins and closes the scan's cursors; the view refuses access afterwards.
   * Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    view.close();
    guard.close();
  }
}
