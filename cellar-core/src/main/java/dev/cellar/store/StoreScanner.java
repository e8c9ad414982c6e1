package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import java.io.IOException;
import java.util.List;

/**
 * The cells one family returns, row by row: its sources (MemStore segments and HFiles) merged by a
 * {@link KeyValueHeap} and sifted by a {@link ScanQueryMatcher}, which turns whole columns and rows
 * that cannot match into skips. The cells returned go into the caller's {@link CollectedRow} (views
 * of pinned blocks, or copies) so they outlive the cursor's moves.
 *
 * <p>Each row is sifted by a {@link RowSifter}, which skips columns and rows by stepping before it
 * seeks and allocates nothing per row.
 *
 * <p>A scanner for a Get ({@code singleRow}) ends with its row: once the row is collected or
 * skipped it reports no more cells instead of seeking past the row, as HBase's StoreScanner stops
 * when no more rows may follow. That seek would walk the block index again, and load the next data
 * block when the row ends its block, for nothing. Not thread-safe.
 */
final class StoreScanner implements FamilyScanner {

  private final KeyValueHeap heap;
  private final RowSifter sifter;
  private final boolean singleRow;
  private boolean rowDone;

  /**
   * Merges {@code sources} (taking them over) and positions them on {@code startKey}. If a seek
   * fails, every source is closed before the failure is thrown (they hold pinned blocks and file
   * references).
   *
   * @param singleRow true for a Get: the scanner ends after the first row it collects or skips
   */
  StoreScanner(
      List<? extends KeyValueScanner> sources, ScanSpec spec, Cell startKey, boolean singleRow)
      throws IOException {
    try {
      for (KeyValueScanner source : sources) {
        source.seek(startKey);
      }
    } catch (IOException | RuntimeException e) {
      sources.forEach(KeyValueScanner::close);
      throw e;
    }
    this.heap = new KeyValueHeap(sources);
    this.sifter = new RowSifter(spec);
    this.singleRow = singleRow;
  }

  @Override
  public Cell peek() {
    return rowDone ? null : heap.peek();
  }

  /**
   * Adds the family's matching cells of the row under the cursor to {@code out} and, unless the
   * budget stopped it inside the row, leaves the cursor on the next row.
   */
  @Override
  public boolean collectRow(CollectedRow out, RowBudget budget) throws IOException {
    boolean done = sifter.collectRow(heap, out, !singleRow, budget);
    rowDone = done && singleRow;
    return done;
  }

  @Override
  public void skipRow() throws IOException {
    if (singleRow) {
      rowDone = true;
    } else {
      sifter.skipRow(heap);
    }
  }

  @Override
  public void close() {
    heap.close();
  }
}
