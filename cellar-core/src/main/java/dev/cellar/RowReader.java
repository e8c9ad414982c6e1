package dev.cellar;

import dev.cellar.store.CollectedRow;
import dev.cellar.store.GetPlan;
import dev.cellar.store.Region;
import dev.cellar.store.RegionPointRead;
import dev.cellar.store.ScanRequest;
import java.io.IOException;

/**
 * Reads single rows of one table without allocating: the zero-garbage counterpart of {@link
 * Table#get(Get)}. One reader per thread, kept and reused; each {@link #getView} answers with this
 * reader's one {@link RowView}, whose cells are views into cached blocks, valid until the next
 * read or {@link #close()}.
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
 * <p><b>Memory.</b> Between reads the reader pins exactly the blocks its row view's cells lie in
 * (at most a few); {@link #close()} drops them. A reader that becomes unreachable unclosed is
 * released, and reported, by a cleaner. Not thread-safe.
 */
public final class RowReader implements AutoCloseable {

  private final Region region;
  private final RegionPointRead state = new RegionPointRead();
  private final CollectedRow row = new CollectedRow();
  private final RowView view = new RowView(row, "row reader");
  private final LeakGuard guard;
  private Get plannedGet;
  private int plannedModifications;
  private GetPlan plan;
  private boolean closed;

  RowReader(Region region) {
    this.region = region;
    this.guard = LeakGuard.of(this, "RowReader", row::clear);
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
    region.get(planOf(get), get.rowUnsafe(), state, row);
    return view;
  }

  /**
   * Reads {@code get}'s row into {@code row}, left to the caller to clear (the table's allocating
   * gets, which take the row's cells and pins from it).
   */
  void readInto(Get get, CollectedRow into) throws IOException {
    region.get(planOf(get), get.rowUnsafe(), state, into);
  }

  /**
   * The plan of {@code get}: the last one made when {@code get} is the Get it was made for,
   * unchanged since, or another Get of the same shape (a new Get per read, as HBase's API has
   * callers do, is compiled once too) while the table's families are unchanged; else a new one.
   */
  private GetPlan planOf(Get get) {
    boolean same = get == plannedGet ? get.modifications() == plannedModifications
        : plannedGet != null && get.sameShapeAs(plannedGet);
    if (!same || !region.isCurrent(plan)) {
      plan = region.planGet(new ScanRequest(get.rowUnsafe(), get.rowUnsafe(), true,
          get.columns(), get.maxVersions(), get.minTimestamp(), get.maxTimestamp(), get.filter(),
          get.cacheBlocks(), get.rowUnsafe(), false));
    }
    plannedGet = get;
    plannedModifications = get.modifications();
    return plan;
  }

  /** Drops the row view's pins; the view refuses access afterwards. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    view.close();
    state.close();
    guard.close();
  }
}
