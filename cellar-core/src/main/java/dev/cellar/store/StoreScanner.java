package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.SearchKey;
import java.io.IOException;
import java.util.List;

/**
 * The cells one family returns, row by row: its sources (MemStore segments and HFiles) merged by a
 * {@link KeyValueHeap} and sifted by a {@link ScanQueryMatcher}, which turns whole columns and
 * rows that cannot match into skips. The cells returned go into the caller's {@link CollectedRow}
 * (views of pinned blocks, or copies) so they outlive the cursor's moves.
 *
 * <p><b>Skips.</b> Skipping the rest of a column or row first steps the heap forward a few cells
 * ({@value #STEPS_BEFORE_SEEK} at most), comparing each with the column or row left, and seeks
 * only if that did not get past it, as HBase's StoreScanner prefers {@code next} to a seek when the
 * target is near (HBASE-13109): a seek walks the block index, while the usual skip (the one version
 * of a column a scan asks for, the end of a row) is one step. The column left is the cell just
 * added to the row holder, which outlives the cursor's moves; the current row is a copy, and seek
 * keys are built in reused buffers only when a seek is due, so a row allocates nothing.
 *
 * <p>A scanner for a Get ({@code singleRow}) ends with its row: once the row is collected or
 * skipped it reports no more cells instead of seeking past the row, as HBase's StoreScanner stops
 * when no more rows may follow. That seek would walk the block index again, and load the next data
 * block when the row ends its block, for nothing. Not thread-safe.
 */
final class StoreScanner implements FamilyScanner {

  /** Cells stepped over, at most, before a skip seeks instead. */
  static final int STEPS_BEFORE_SEEK = 8;

  private final KeyValueHeap heap;
  private final RowSifter sifter;
  private final boolean singleRow;
  private boolean rowDone;

  /**
   * Merges {@code sources} (taking them over) and positions them on {@code startKey}.
   *
   * @param singleRow true for a Get: the scanner ends after the first row it collects or skips
   */
  StoreScanner(List<? extends KeyValueScanner> sources, ScanSpec spec, Cell startKey,
      boolean singleRow) throws IOException {
    for (KeyValueScanner source : sources) {
      source.seek(startKey);
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
   * Adds the family's matching cells of the row under the cursor to {@code out} and leaves the
   * cursor on the next row.
   */
  @Override
  public void collectRow(CollectedRow out) throws IOException {
    rowDone = singleRow;
    sifter.collectRow(heap, out, !singleRow);
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

  /**
   * The row loop both scan directions share, with its reused keys: sifts the cells of the row under
   * a heap's cursor through the matcher. Not thread-safe.
   */
  static final class RowSifter {

    private final ScanQueryMatcher matcher;
    /** The current row: a copy, since the cursor's views leave it. */
    private final CopiedBytes row = new CopiedBytes();
    /** The column a skip leaves, when no cell of the row holder stands for it. */
    private final SearchKey column = new SearchKey();
    private final SearchKey seekKey = new SearchKey();

    RowSifter(ScanSpec spec) {
      this.matcher = new ScanQueryMatcher(spec, new SearchKey());
    }

    /**
     * Sifts the cells of the row under {@code heap}'s cursor through the matcher, adding the
     * matches to {@code out}. When the matcher is done with the row early, the heap skips past it
     * only if {@code skipPastRow} (a caller that ends with the row, or moves on by itself, saves
     * the skip).
     */
    void collectRow(KeyValueHeap heap, CollectedRow out, boolean skipPastRow)
        throws IOException {
      Cell cell = heap.peek();
      row.setRow(cell);
      matcher.startRow();
      while (cell != null) {
        switch (matcher.match(cell)) {
          case INCLUDE -> {
            heap.collectCurrent(out);
            cell = nextInRow(heap);
          }
          case INCLUDE_AND_SEEK_NEXT_COL -> {
            heap.collectCurrent(out);
            cell = skipColumn(heap, out.get(out.size() - 1));
          }
          case INCLUDE_AND_SEEK_NEXT_ROW -> {
            heap.collectCurrent(out);
            if (skipPastRow) {
              skipRest(heap);
            }
            return;
          }
          case SKIP -> cell = nextInRow(heap);
          case SEEK_NEXT_COL -> cell = skipColumn(heap, column.lastOnColumn(cell));
          case SEEK_NEXT_ROW -> {
            if (skipPastRow) {
              skipRest(heap);
            }
            return;
          }
          case SEEK_NEXT_USING_HINT -> {
            seekToHint(heap, cell);
            cell = inRow(heap.peek());
          }
        }
      }
    }

    /** Moves {@code heap} past the row under its cursor without reading it. */
    void skipRow(KeyValueHeap heap) throws IOException {
      row.setRow(heap.peek());
      skipRest(heap);
    }

    /** {@code cell} if it is of the current row, else null. */
    private Cell inRow(Cell cell) {
      return cell != null && row.matchesRow(cell) ? cell : null;
    }

    /** Moves to the next cell; returns it if it is of the current row, else null. */
    private Cell nextInRow(KeyValueHeap heap) throws IOException {
      return inRow(heap.next());
    }

    /**
     * Moves past the rest of the column of {@code inColumn}, a cell of it that outlives the
     * cursor's moves: steps forward, and seeks if a few steps do not leave the column. Returns the
     * cell it stops on if that is of the current row, else null. Each step compares the qualifier
     * first: the next column of a row differs there, the next row usually not.
     */
    private Cell skipColumn(KeyValueHeap heap, Cell inColumn) throws IOException {
      for (int step = 0; step < STEPS_BEFORE_SEEK; step++) {
        Cell next = heap.next();
        if (next == null) {
          return null;
        }
        if (!sameQualifier(next, inColumn)) {
          return inRow(next);
        }
        if (!row.matchesRow(next)) {
          return null;
        }
      }
      heap.reseek(seekKey.lastOnColumn(inColumn));
      return inRow(heap.peek());
    }

    /** Moves past the rest of the current row, as {@link #skipColumn} does. */
    private void skipRest(KeyValueHeap heap) throws IOException {
      for (int step = 0; step < STEPS_BEFORE_SEEK; step++) {
        Cell next = heap.next();
        if (next == null || !row.matchesRow(next)) {
          return;
        }
      }
      heap.reseek(seekKey.lastOnRow(row.segment(), 0, row.length()));
    }

    /**
     * Jumps to the matcher's seek hint; a hint that is missing or not after {@code current} (a
     * filter's mistake) only moves past the current cell, as HBase does, so the scan always
     * advances.
     */
    private void seekToHint(KeyValueHeap heap, Cell current) throws IOException {
      Cell hint = matcher.seekHint();
      if (hint != null && CellComparator.INSTANCE.compare(hint, current) > 0) {
        heap.reseek(hint);
      } else {
        heap.next();
      }
    }

    /**
     * Whether two cells of one store have the same qualifier: their families are the store's,
     * so only the qualifiers are compared (a family's length is a field, checked for free).
     */
    private static boolean sameQualifier(Cell cell, Cell other) {
      return cell.familyLength() == other.familyLength()
          && Bytes.equals(cell.segment(), cell.qualifierOffset(), cell.qualifierLength(),
              other.segment(), other.qualifierOffset(), other.qualifierLength());
    }
  }
}
