package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The cells one family returns, row by row: its sources (MemStore segments and HFiles) merged by a
 * {@link KeyValueHeap} and sifted by a {@link ScanQueryMatcher}, which turns whole columns and
 * rows that cannot match into seeks. The cells returned are pinned into the caller's {@link Pins}
 * (views into block or chunk memory, retained) so they outlive the cursor's moves.
 *
 * <p>A scanner for a Get ({@code singleRow}) ends with its row: once the row is collected or
 * skipped it reports no more cells instead of seeking past the row, as HBase's StoreScanner stops
 * when no more rows may follow. That seek would walk the block index again, and load the next data
 * block when the row ends its block, for nothing. Not thread-safe.
 */
final class StoreScanner implements FamilyScanner {

  private final KeyValueHeap heap;
  private final ScanQueryMatcher matcher;
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
    this.matcher = new ScanQueryMatcher(spec);
    this.singleRow = singleRow;
  }

  @Override
  public Cell peek() {
    return rowDone ? null : heap.peek();
  }

  /**
   * Appends the family's matching cells of the row under the cursor to {@code out}, pinned into
   * {@code pins}, and leaves the cursor on the next row.
   */
  @Override
  public void collectRow(List<Cell> out, Pins pins) throws IOException {
    rowDone = singleRow;
    collectRow(heap, matcher, out, pins, !singleRow);
  }

  /**
   * The row loop both scan directions share: sifts the cells of the row under {@code heap}'s
   * cursor through {@code matcher}, appending the matches pinned into {@code pins}. When the
   * matcher is done with the row early, the heap seeks past it only if {@code seekPastRow} (a
   * caller that ends with the row, or moves on by itself, saves the seek).
   */
  static void collectRow(KeyValueHeap heap, ScanQueryMatcher matcher, List<Cell> out, Pins pins,
      boolean seekPastRow) throws IOException {
    Cell first = heap.peek();
    byte[] row = first.rowArray();
    MemorySegment rowSegment = MemorySegment.ofArray(row);
    matcher.startRow();
    for (Cell cell = first; cell != null && sameRow(cell, rowSegment, row.length);
        cell = heap.peek()) {
      switch (matcher.match(cell)) {
        case INCLUDE -> {
          out.add(heap.pinCurrent(pins));
          heap.next();
        }
        case INCLUDE_AND_SEEK_NEXT_COL -> {
          out.add(heap.pinCurrent(pins));
          heap.reseek(lastOnColumn(cell));
        }
        case INCLUDE_AND_SEEK_NEXT_ROW -> {
          out.add(heap.pinCurrent(pins));
          if (seekPastRow) {
            heap.reseek(KeyValue.lastOnRow(row));
          }
          return;
        }
        case SKIP -> heap.next();
        case SEEK_NEXT_COL -> heap.reseek(lastOnColumn(cell));
        case SEEK_NEXT_ROW -> {
          if (seekPastRow) {
            heap.reseek(KeyValue.lastOnRow(row));
          }
          return;
        }
        case SEEK_NEXT_USING_HINT -> seekToHint(heap, matcher, cell);
      }
    }
  }

  /**
   * Jumps to the matcher's seek hint; a hint that is missing or not after {@code current} (a
   * filter's mistake) only moves past the current cell, as HBase does, so the scan always advances.
   */
  private static void seekToHint(KeyValueHeap heap, ScanQueryMatcher matcher, Cell current)
      throws IOException {
    Cell hint = matcher.seekHint();
    if (hint != null && CellComparator.INSTANCE.compare(hint, current) > 0) {
      heap.reseek(hint);
    } else {
      heap.next();
    }
  }

  @Override
  public void skipRow() throws IOException {
    if (singleRow) {
      rowDone = true;
    } else {
      heap.reseek(KeyValue.lastOnRow(heap.peek().rowArray()));
    }
  }

  private static boolean sameRow(Cell cell, MemorySegment row, int rowLength) {
    return Bytes.equals(cell.segment(), cell.rowOffset(), cell.rowLength(), row, 0, rowLength);
  }

  private static KeyValue lastOnColumn(Cell cell) {
    return KeyValue.lastOnColumn(cell.rowArray(), cell.familyArray(), cell.qualifierArray());
  }

  @Override
  public void close() {
    heap.close();
  }
}
