package dev.cellar;

import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import dev.cellar.row.RowStream;
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
 * <p><b>Parts of rows.</b> {@link #nextPart} reads a wide row a part at a time, each part limited
 * in cells, bytes and time, as HBase's region server answers a client that takes partial results;
 * the scanner stays inside the row between parts, and pins only the blocks of the part in view.
 *
 * <p><b>Cost.</b> A row of cached blocks allocates nothing on the heap once the scanner's row
 * holder has grown to the largest row: the row's cells are flyweight views reused from row to row,
 * and the scan's cursors, merge heap, matcher and seek keys are the scanner's own. Cells of the
 * MemStore and of delta-encoded blocks are copied into the holder's reused heap arena. A filter
 * allocates what its own calls allocate.
 *
 * <p><b>Through Cellar's client</b> ({@code Cellar.connect}) the rows come from the server's
 * scanner a batch at a time ({@link Scan#setCaching}) and each view's cells are decoded in place in
 * its batch's pooled cell block, which stays pinned while a row of it is in view; nothing is copied
 * per row, while each batch's call allocates its messages.
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

  /** The budget of each {@link #nextPart} call, reset for each. */
  private final RowBudget budget = new RowBudget();

  private long remaining;
  private boolean closed;

  /** A scanner of {@code scanner}'s rows up to {@code limit}, closing it with itself. */
  RowScanner(RowStream scanner, long limit) {
    CollectedRow held = new CollectedRow();
    this.scanner = scanner;
    this.row = held;
    this.view = new RowView(held, "row scanner");
    this.remaining = limit;
    this.guard =
        LeakGuard.of(
            this,
            "RowScanner",
            () -> {
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
    return read(false, false, 0);
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
    return read(false, true, deadlineNanos);
  }

  /**
   * Reads the next part of a row into this scanner's view, as HBase's region server splits a wide
   * row for a client that takes partial results: the rest of the row the previous call stopped
   * inside ({@link #stoppedInRow()}), else the next row, up to {@code maxCells} cells and until the
   * cells reach {@code maxBytes} bytes (the cell that reaches them included; see {@link RowBudget}
   * for how a cell counts). A part stops inside its row only when the row has more cells; the part
   * that ends a row a previous call stopped inside may be empty, when the rest of the row holds
   * nothing the scan returns. A scan whose filter needs whole rows ({@link
   * dev.cellar.filter.Filter#hasFilterRow}) returns whole rows. Null at the end of the scan (or
   * once the scan's limit is reached: a row counts once its last part is read). The view's cells
   * are valid until the next call or {@link #close()}.
   *
   * <p>The parts of a row, in order, hold the cells {@link #nextView()} returns for it; {@code
   * nextView()} after a part that stopped inside a row returns the rest of that row.
   *
   * @throws IllegalArgumentException if {@code maxCells} or {@code maxBytes} is below 1
   * @throws IllegalStateException if the scanner was closed
   */
  public RowView nextPart(int maxCells, long maxBytes) throws IOException {
    budget.reset(maxCells, maxBytes);
    return read(true, false, 0);
  }

  /**
   * As {@link #nextPart(int, long)}, but gives up once {@code deadlineNanos} (a {@link
   * System#nanoTime()} value) has passed: inside a row (looked at every {@value
   * RowBudget#CELLS_PER_DEADLINE_CHECK} cells the scan examines, and between families), returning
   * the part read so far, or null if it is empty; between rows, as {@link #nextView(long)} does.
   * {@link #stoppedAtDeadline()} tells a null at the deadline from the end of the scan.
   */
  public RowView nextPart(int maxCells, long maxBytes, long deadlineNanos) throws IOException {
    budget.reset(maxCells, maxBytes, deadlineNanos);
    return read(true, true, deadlineNanos);
  }

  /**
   * Whether the last {@link #nextPart} stopped inside its row: the next call goes on with the rest
   * of it (HBase's {@code mayHaveMoreCellsInRow}: the rest may turn out to hold no cell).
   */
  public boolean stoppedInRow() {
    return scanner.stoppedInRow();
  }

  /** Whether the last timed call returned null because its deadline passed. */
  public boolean stoppedAtDeadline() {
    return scanner.stoppedAtDeadline();
  }

  /**
   * After a timed call: the key of the last row the scan examined (a copy). After one that {@link
   * #stoppedAtDeadline()} between rows, every row up to it has been scanned (HBase's scan cursor);
   * after one that stopped inside a row, that row.
   */
  public byte[] lastSkippedRow() {
    return scanner.lastSkippedRow();
  }

  private RowView read(boolean part, boolean timed, long deadlineNanos) throws IOException {
    if (closed) {
      throw new IllegalStateException("the row scanner was closed");
    }
    row.clearCarryingPins();
    try {
      if (remaining <= 0 && !scanner.stoppedInRow()) {
        return null;
      }
      boolean found =
          part
              ? scanner.nextPart(row, budget)
              : timed ? scanner.next(row, deadlineNanos) : scanner.next(row);
      if (!found) {
        return null;
      }
      if (!scanner.stoppedInRow()) {
        remaining--;
      }
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
