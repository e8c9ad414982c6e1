package dev.cellar;

import dev.cellar.row.CollectedRow;
import dev.cellar.row.PointReads;
import java.io.IOException;

/**
 * Reads single rows of one table without allocating: the zero-garbage counterpart of {@link
 * Table#get(Get)}. One reader per thread, kept and reused; each {@link #getView} answers with this
 * reader's one {@link RowView}, whose cells are views into cached blocks, valid until the next read
 * or {@link #close()}.
 *
 * <pre>{@code
 * Get get = new Get(firstRow).addColumn(family, qualifier);    // compiled once, reused
 * try (RowReader reader = table.rowReader()) {
 *   for (byte[] row : rows) {
 *     RowView view = reader.getView(get.setRow(row));
 *     int length = view.copyValue(family, qualifier, buffer, 0);  // copies nothing else
 *   }
 * }
 * }</pre>
 *
 * <p><b>Cost.</b> A Get without a filter on a cached row (a block cache hit in either tier, or a
 * MemStore hit) allocates nothing on the heap once the reader has grown to the largest row read: it
 * reuses its seekers, scanners, merge heap, matcher, keys and row holder, and compiles a reused
 * {@link Get} once (again only after the Get's columns, versions, time range or filter change). A
 * Get with a filter reads through a region scanner and allocates as {@link Table#get(Get)} does.
 *
 * <p><b>Through Cellar's client</b> ({@code Cellar.connect}) each read is one Get call to the
 * server, and the view's cells are decoded in place in the answer's pooled cell block, which the
 * reader pins until its next read or its close; nothing is copied, but the call itself allocates
 * (its request and answer messages).
 *
 * <p><b>Memory.</b> Between reads the reader pins exactly the blocks its row view's cells lie in
 * (at most a few); {@link #close()} drops them. A reader that becomes unreachable unclosed is
 * released, and reported, by a cleaner. Not thread-safe.
 */
public final class RowReader implements AutoCloseable {

  private final PointReads<Get> reads;
  private final CollectedRow row = new CollectedRow();
  private final RowView view = new RowView(row, "row reader");
  private final LeakGuard guard;
  private boolean closed;

  /** A reader over {@code reads}, which it closes with itself. */
  RowReader(PointReads<Get> reads) {
    this.reads = reads;
    this.guard =
        LeakGuard.of(
            this,
            "RowReader",
            () -> {
              row.clear();
              reads.close();
            });
  }

  /**
   * Reads {@code get}'s row into this reader's view, dropping the previous row. The view's cells
   * are valid until the next read or {@link #close()}.
   *
   * @throws IllegalStateException if the reader was closed
   */
  public RowView getView(Get get) throws IOException {
    if (closed) {
      throw new IllegalStateException("the row reader was closed");
    }
    row.clear();
    reads.read(get, row);
    return view;
  }

  /**
   * Reads {@code get}'s row into {@code row}, left to the caller to clear (the table's allocating
   * gets, which take the row's cells and pins from it).
   */
  void readInto(Get get, CollectedRow into) throws IOException {
    reads.read(get, into);
  }

  /** Drops the row view's pins; the view refuses access afterwards. Idempotent. */
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
