package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.filter.Filter;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import dev.cellar.row.RowStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * A table's rows in order (or in reverse order) across its families: each call assembles the next
 * row from the families' {@link FamilyScanner}s (in family order, so a row's cells come sorted)
 * into the caller's {@link CollectedRow}, stops at the stop row, and applies the row-level parts of
 * the filter (row key, whole-row decisions, the end of the scan). Rows left empty, by deletes or
 * filters, are skipped, and the blocks a filtered row pinned are released at once, so a scan that
 * filters out most rows pins no more than the rows it returns. Assembling a row allocates nothing
 * here; the families' scanners and the row holder decide what their cells cost. Not thread-safe.
 *
 * <p><b>Deadlines.</b> A call given a deadline ({@link #next(CollectedRow, long)}) gives up once
 * the deadline has passed after it skipped a row, so that a filter that rejects row after row
 * cannot hold the caller past it (a server answers its client with a heartbeat then). The scan
 * stays where it stopped: the next call goes on with the row after the last one skipped, whose key
 * {@link #lastSkippedRow()} gives (HBase's scan cursor). For a whole-row read the deadline is
 * checked between rows, not between the cells of one row.
 *
 * <p><b>Parts of rows.</b> A part read ({@link #nextPart}) may stop inside a row once its {@link
 * RowBudget} is spent, as HBase's region scanner does with limits between cells: inside a family
 * (see {@link RowSifter#collectRow}) or between two families, when the row has more cells. The
 * scanner then stays in the row: the families that have it ({@link #inRow}), the one it stopped in
 * ({@link #family}), that family's place in it, and the filter, which is not reset and not asked
 * about the row key again. The next call goes on with the rest of the row, and ends with it even
 * when it holds no more cells, so that the caller learns the row is complete. The whole-row parts
 * of the filter apply to the cells of the row's last part only ({@link Filter#filterRow}, as HBase
 * asks it then too); a filter that needs whole rows ({@link Filter#hasFilterRow}) gets them, every
 * part read returning whole rows, as HBase then limits only between rows.
 */
public final class RegionScanner implements RowStream {

  private final FamilyScanner[] stores;
  private final byte[] stopRow;
  private final MemorySegment stopRowSegment;
  private final boolean stopRowInclusive;
  private final boolean reversed;
  private final Filter filter;
  private final EngineMetrics metrics;
  private final RegionRequests requests;

  /** The stores that have the next row, the first {@link #inRowCount} of them. */
  private final FamilyScanner[] inRow;

  private int inRowCount;
  private boolean done;

  /** Whether the current call has a deadline, and the deadline ({@link System#nanoTime()}). */
  private boolean timed;

  private long deadlineNanos;
  private boolean stoppedAtDeadline;

  /** The key of the row the current timed call examined last, for {@link #lastSkippedRow()}. */
  private byte[] examinedRow = Bytes.EMPTY;

  private int examinedRowLength;

  /** Whether the last call stopped inside its row, and the store of {@link #inRow} it was in. */
  private boolean midRow;

  private int family;

  /**
   * @param stores one scanner per family, in family order, all in the scan's direction; taken over
   * @param stopRow where the scan ends (after it, or before it when reversed); empty for no end
   * @param stopRowInclusive whether the stop row itself is returned
   * @param reversed whether rows come from the largest down
   * @param filter the scan's filter, or null
   */
  RegionScanner(
      List<? extends FamilyScanner> stores,
      byte[] stopRow,
      boolean stopRowInclusive,
      boolean reversed,
      Filter filter) {
    this(stores, stopRow, stopRowInclusive, reversed, filter, null, null);
  }

  /**
   * As above, recording each row's time and count into {@code metrics} and counting it as a read of
   * the region in {@code requests}, unless they are null (both are, or neither).
   */
  RegionScanner(
      List<? extends FamilyScanner> stores,
      byte[] stopRow,
      boolean stopRowInclusive,
      boolean reversed,
      Filter filter,
      EngineMetrics metrics,
      RegionRequests requests) {
    this.metrics = metrics;
    this.requests = requests;
    this.stores = stores.toArray(new FamilyScanner[0]);
    this.inRow = new FamilyScanner[this.stores.length];
    this.stopRow = stopRow;
    this.stopRowSegment = MemorySegment.ofArray(stopRow);
    this.stopRowInclusive = stopRowInclusive;
    this.reversed = reversed;
    this.filter = filter;
  }

  /**
   * Adds the next row's cells to {@code out}; false, adding nothing, when there are no more rows.
   * The caller clears {@code out} between rows (or keeps several rows in it). After a part read
   * that stopped inside a row, adds the rest of that row (maybe nothing) instead.
   */
  @Override
  public boolean next(CollectedRow out) throws IOException {
    timed = false;
    return read(out, RowBudget.WHOLE_ROW);
  }

  /**
   * As {@link #next(CollectedRow)}, but returns false, adding nothing, as soon as {@code
   * deadlineNanos} (a {@link System#nanoTime()} value) has passed after a row was skipped; {@link
   * #stoppedAtDeadline()} then tells that rows may remain.
   */
  @Override
  public boolean next(CollectedRow out, long deadlineNanos) throws IOException {
    timed = true;
    this.deadlineNanos = deadlineNanos;
    return read(out, RowBudget.WHOLE_ROW);
  }

  /**
   * Adds the next part of a row to {@code out}: the rest of the row the previous call stopped
   * inside ({@link #stoppedInRow()}), else the next row, until the row ends or {@code budget} is
   * spent. The part that ends a row the previous call stopped inside may add nothing.
   *
   * @return true if a part was read; false, adding nothing, at the end of the scan or at the
   *     budget's deadline ({@link #stoppedAtDeadline()}, between rows or inside one)
   */
  @Override
  public boolean nextPart(CollectedRow out, RowBudget budget) throws IOException {
    timed = budget.timed();
    deadlineNanos = budget.deadlineNanos();
    return read(out, budget);
  }

  /** Whether the last part read stopped inside its row, which the next read goes on with. */
  @Override
  public boolean stoppedInRow() {
    return midRow;
  }

  /** Whether the last call returned false because its deadline passed (not at the scan's end). */
  @Override
  public boolean stoppedAtDeadline() {
    return stoppedAtDeadline;
  }

  /**
   * After a timed call, the key of the last row it examined (a copy): after one that {@link
   * #stoppedAtDeadline()} between rows, every row up to it has been scanned; inside a row, the row
   * it stopped in.
   */
  @Override
  public byte[] lastSkippedRow() {
    return Arrays.copyOf(examinedRow, examinedRowLength);
  }

  private boolean read(CollectedRow out, RowBudget budget) throws IOException {
    stoppedAtDeadline = false;
    long start = metrics == null ? EngineMetrics.NOT_TIMED : metrics.start(Operation.SCAN_NEXT);
    boolean found = midRow ? restOfRow(out, budget) : nextRow(out, budget);
    if (found && metrics != null) {
      metrics.recordSince(Operation.SCAN_NEXT, start);
      metrics.increment(Counter.READ_REQUESTS);
      requests.read();
    }
    return found;
  }

  private boolean nextRow(CollectedRow out, RowBudget budget) throws IOException {
    RowBudget rowBudget = filter != null && filter.hasFilterRow() ? RowBudget.WHOLE_ROW : budget;
    while (!done) {
      Cell first = firstOfNextRow();
      if (first == null || pastStop(first) || (filter != null && filter.filterAllRemaining())) {
        done = true;
        return false;
      }
      if (timed || rowBudget.limited()) {
        rememberRow(first);
      }
      if (filter != null) {
        filter.reset();
        if (filter.filterRowKey(first)) {
          for (int i = 0; i < inRowCount; i++) {
            inRow[i].skipRow();
          }
          if (pastDeadline()) {
            return false;
          }
          continue;
        }
      }
      int start = out.size();
      int pinned = out.pinnedBuffers();
      family = 0;
      if (!collectFamilies(out, rowBudget)) {
        return stoppedInRow(out, start);
      }
      if (filter != null && out.size() > start) {
        filterRow(out.cells().subList(start, out.size()));
      }
      if (out.size() > start) {
        return true;
      }
      out.unpinAfter(pinned);
      if (pastDeadline()) {
        return false;
      }
    }
    return false;
  }

  /** Goes on with the row the previous call stopped inside, to its end or the budget's. */
  private boolean restOfRow(CollectedRow out, RowBudget budget) throws IOException {
    int start = out.size();
    int pinned = out.pinnedBuffers();
    if (!collectFamilies(out, budget)) {
      return stoppedInRow(out, start);
    }
    midRow = false;
    if (filter != null && out.size() > start) {
      filterRow(out.cells().subList(start, out.size()));
    }
    if (out.size() == start) {
      out.unpinAfter(pinned);
    }
    return true;
  }

  /**
   * Collects the row from the store of {@link #inRow} at {@link #family} on; false when {@code
   * budget} stopped it inside the row (inside a store, or before the next one).
   */
  private boolean collectFamilies(CollectedRow out, RowBudget budget) throws IOException {
    while (family < inRowCount) {
      if (!inRow[family].collectRow(out, budget)) {
        return false;
      }
      family++;
      if (family < inRowCount && budget.spent()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Records a stop inside the row: a part if cells were added since {@code start}, else (only a
   * deadline stops a read before its first cell) nothing, at the deadline.
   */
  private boolean stoppedInRow(CollectedRow out, int start) {
    midRow = true;
    if (out.size() > start) {
      return true;
    }
    stoppedAtDeadline = true;
    return false;
  }

  private boolean pastDeadline() {
    if (timed && System.nanoTime() - deadlineNanos >= 0) {
      stoppedAtDeadline = true;
    }
    return stoppedAtDeadline;
  }

  /** Copies the key of the row about to be examined into {@link #examinedRow} (reused). */
  private void rememberRow(Cell first) {
    int length = first.rowLength();
    if (examinedRow.length < length) {
      examinedRow = new byte[Math.max(length, 2 * examinedRow.length)];
    }
    MemorySegment.copy(
        first.segment(), ValueLayout.JAVA_BYTE, first.rowOffset(), examinedRow, 0, length);
    examinedRowLength = length;
  }

  /**
   * Applies the whole-row parts of the filter to a non-empty row, as HBase's region scanner does:
   * {@link Filter#filterRowCells} only for a filter that says it {@link Filter#hasFilterRow}, then
   * {@link Filter#filterRow} only if cells remain (a row left empty is dropped without asking, so a
   * page filter does not count it).
   */
  private void filterRow(List<Cell> row) {
    if (filter.hasFilterRow()) {
      filter.filterRowCells(row);
    }
    if (!row.isEmpty() && filter.filterRow()) {
      row.clear();
    }
  }

  /**
   * A cell of the next row in scan order (the smallest row, or the largest when reversed); sets
   * {@link #inRow} to the stores that have it.
   */
  private Cell firstOfNextRow() {
    inRowCount = 0;
    Cell first = null;
    for (FamilyScanner store : stores) {
      Cell cell = store.peek();
      if (cell == null) {
        continue;
      }
      int order =
          first == null
              ? -1
              : reversed
                  ? CellComparator.compareRows(first, cell)
                  : CellComparator.compareRows(cell, first);
      if (order < 0) {
        inRowCount = 0;
        first = cell;
      }
      if (order <= 0) {
        inRow[inRowCount++] = store;
      }
    }
    return first;
  }

  private boolean pastStop(Cell cell) {
    if (stopRow.length == 0) {
      return false;
    }
    int order =
        Bytes.compare(
            cell.segment(), cell.rowOffset(), cell.rowLength(), stopRowSegment, 0, stopRow.length);
    if (reversed) {
      order = -order;
    }
    return stopRowInclusive ? order > 0 : order >= 0;
  }

  @Override
  public void close() {
    for (FamilyScanner store : stores) {
      store.close();
    }
  }
}
