package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.SearchKey;
import java.io.IOException;

/**
 * The row loop both scan directions share: sifts the cells of the row under a {@link
 * KeyValueHeap}'s cursor through a {@link ScanQueryMatcher}, adding the matches to a {@link
 * CollectedRow}, and turns the matcher's skips into cursor moves.
 *
 * <p><b>Skips.</b> Skipping the rest of a column or row first steps the heap forward a few cells
 * ({@value #STEPS_BEFORE_SEEK} at most), comparing each with the column or row left, and seeks
 * only if that did not get past it, as HBase's StoreScanner prefers {@code next} to a seek when the
 * target is near (HBASE-13109): a seek walks the block index, while the usual skip (the one version
 * of a column a scan asks for, the end of a row) is one step.
 *
 * <p><b>Memory.</b> The cursor's cells are views that move, so what a skip compares against must
 * outlive the moves: the column left is the cell just added to the row holder (or a key of the
 * column, built in a reused buffer), the row is the row holder's first cell of it or a copy ({@link
 * CurrentRow}), and seek keys are built in reused buffers only when a seek is due. A row allocates
 * nothing here. Not thread-safe: one per store scanner.
 */
final class RowSifter {

  /** Cells stepped over, at most, before a skip seeks instead. */
  static final int STEPS_BEFORE_SEEK = 8;

  private final ScanQueryMatcher matcher;
  private final CurrentRow row = new CurrentRow();
  /** A key of the column a skip leaves when the row holder took no cell of it. */
  private final SearchKey column = new SearchKey();
  private final SearchKey seekKey = new SearchKey();

  RowSifter(ScanSpec spec) {
    this.matcher = new ScanQueryMatcher(spec, new SearchKey());
  }

  /**
   * Sifts the cells of the row under {@code heap}'s cursor through the matcher, adding the matches
   * to {@code out}. When the matcher is done with the row early, the heap skips past it only if
   * {@code skipPastRow} (a caller that ends with the row, or moves on by itself, saves the skip).
   */
  void collectRow(KeyValueHeap heap, CollectedRow out, boolean skipPastRow) throws IOException {
    Cell cell = heap.peek();
    row.start();
    matcher.startRow();
    while (cell != null) {
      switch (matcher.match(cell)) {
        case INCLUDE -> {
          keep(heap, out);
          cell = nextInRow(heap);
        }
        case INCLUDE_AND_SEEK_NEXT_COL -> cell = skipColumn(heap, keep(heap, out));
        case INCLUDE_AND_SEEK_NEXT_ROW -> {
          keep(heap, out);
          if (skipPastRow) {
            skipRest(heap);
          }
          return;
        }
        case SKIP -> {
          row.copyIfUnkept(cell);
          cell = nextInRow(heap);
        }
        case SEEK_NEXT_COL -> {
          row.copyIfUnkept(cell);
          cell = skipColumn(heap, column.lastOnColumn(cell));
        }
        case SEEK_NEXT_ROW -> {
          if (skipPastRow) {
            row.copyIfUnkept(cell);
            skipRest(heap);
          }
          return;
        }
        case SEEK_NEXT_USING_HINT -> {
          row.copyIfUnkept(cell);
          seekToHint(heap, cell);
          cell = inRow(heap.peek());
        }
      }
    }
  }

  /** Moves {@code heap} past the row under its cursor without reading it. */
  void skipRow(KeyValueHeap heap) throws IOException {
    row.start();
    row.copyIfUnkept(heap.peek());
    skipRest(heap);
  }

  /**
   * Adds the current cell to {@code out} and returns the holder's cell, which outlives the
   * cursor's moves; the row's first such cell stands for the row.
   */
  private Cell keep(KeyValueHeap heap, CollectedRow out) {
    heap.collectCurrent(out);
    Cell kept = out.get(out.size() - 1);
    row.keep(kept);
    return kept;
  }

  /** {@code cell} if it is of the current row, else null. */
  private Cell inRow(Cell cell) {
    return cell != null && row.matches(cell) ? cell : null;
  }

  /** Moves to the next cell; returns it if it is of the current row, else null. */
  private Cell nextInRow(KeyValueHeap heap) throws IOException {
    return inRow(heap.next());
  }

  /**
   * Moves past the rest of the column of {@code inColumn}, a cell of it that outlives the cursor's
   * moves: steps forward, and seeks if a few steps do not leave the column. Returns the cell it
   * stops on if that is of the current row, else null. Each step compares the qualifier first: the
   * next column of a row differs there, the next row usually not.
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
      if (!row.matches(next)) {
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
      if (next == null || !row.matches(next)) {
        return;
      }
    }
    heap.reseek(seekKey.lastOnRow(row.segment(), row.offset(), row.length()));
  }

  /**
   * Jumps to the matcher's seek hint; a hint that is missing or not after {@code current} (a
   * filter's mistake) only moves past the current cell, as HBase does, so the scan always advances.
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
   * Whether two cells of one store have the same qualifier: their families are the store's, so
   * only the qualifiers are compared (a family's length is a field, checked for free).
   */
  private static boolean sameQualifier(Cell cell, Cell other) {
    return cell.familyLength() == other.familyLength()
        && Bytes.equals(cell.segment(), cell.qualifierOffset(), cell.qualifierLength(),
            other.segment(), other.qualifierOffset(), other.qualifierLength());
  }
}
