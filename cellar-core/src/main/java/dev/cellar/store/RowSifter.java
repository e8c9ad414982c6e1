package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.search.SearchKey;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The row loop both scan directions share: sifts the cells of the row under a {@link
 * KeyValueHeap}'s cursor through a {@link ScanQueryMatcher}, adding the matches to a {@link
 * CollectedRow}, and turns the matcher's skips into cursor moves.
 *
 * <p><b>Skips.</b> Skipping the rest of a column or row first steps the heap forward a few cells
 * ({@value #STEPS_BEFORE_SEEK} at most), comparing each with the column or row left, and seeks only
 * if that did not get past it, as HBase's StoreScanner prefers {@code next} to a seek when the
 * target is near (HBASE-13109): a seek walks the block index, while the usual skip (the one version
 * of a column a scan asks for, the end of a row) is one step.
 *
 * <p><b>Newest puts.</b> A whole-row sift for a spec that asks for the newest put of every column,
 * with one source left, takes the row with {@link LatestPutsCollector} instead of the matcher (in
 * place in the blocks of an unencoded file), and falls back to the matcher from the row's start
 * when the row holds a delete marker or a cell outside the time range.
 *
 * <p><b>Parts.</b> A sift may stop inside a row when its {@link RowBudget} is spent, and the next
 * one goes on from there (see {@link #collectRow}); a whole-row budget never stops it.
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
  private final ScanSpec spec;

  /** Whether a row from one source may be taken by {@link LatestPutsCollector}. */
  private final boolean latestPuts;

  private final CurrentRow row = new CurrentRow();

  /** A key of the column a skip leaves when the row holder took no cell of it. */
  private final SearchKey column = new SearchKey();

  private final SearchKey seekKey = new SearchKey();

  /** Whether the last sift stopped inside its row, which the next one goes on with. */
  private boolean stoppedInRow;

  RowSifter(ScanSpec spec) {
    this.matcher = new ScanQueryMatcher(spec, new SearchKey());
    this.spec = spec;
    this.latestPuts = LatestPutsCollector.applies(spec);
  }

  /**
   * Sifts the cells of the row under {@code heap}'s cursor through the matcher, adding the matches
   * to {@code out}, until the row ends or {@code budget} stops the sift inside it. When the matcher
   * is done with the row early, the heap skips past it only if {@code skipPastRow} (a caller that
   * ends with the row, or moves on by itself, saves the skip).
   *
   * <p>A sift stops inside the row after a cell that spends the budget's cells or bytes, when the
   * row has more cells, or before a cell at which the budget's deadline is found passed. The next
   * call then goes on from the cell the cursor is on, the matcher still in the row (its column and
   * delete trackers keep copies of what they track) and the row copied ({@link
   * CurrentRow#ownCopy}), as the caller clears {@code out} in between.
   *
   * @return true when done with the row, false when stopped inside it
   */
  boolean collectRow(KeyValueHeap heap, CollectedRow out, boolean skipPastRow, RowBudget budget)
      throws IOException {
    if (!stoppedInRow
        && latestPuts
        && budget == RowBudget.WHOLE_ROW
        && collectLatestPuts(heap, out)) {
      return true;
    }
    Cell cell = heap.peek();
    if (!stoppedInRow) {
      row.start();
      matcher.startRow();
    }
    stoppedInRow = false;
    while (cell != null) {
      if (budget.examineAtDeadline()) {
        return stopInRow(cell);
      }
      switch (matcher.match(cell)) {
        case INCLUDE -> {
          boolean spent = budget.take(keep(heap, out));
          cell = nextInRow(heap);
          if (spent && cell != null) {
            return stopInRow(cell);
          }
        }
        case INCLUDE_AND_SEEK_NEXT_COL -> {
          Cell kept = keep(heap, out);
          boolean spent = budget.take(kept);
          cell = skipColumn(heap, kept);
          if (spent && cell != null) {
            return stopInRow(cell);
          }
        }
        case INCLUDE_AND_SEEK_NEXT_ROW -> {
          budget.take(keep(heap, out));
          if (skipPastRow) {
            skipRest(heap);
          }
          return true;
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
          return true;
        }
        case SEEK_NEXT_USING_HINT -> {
          row.copyIfUnkept(cell);
          seekToHint(heap, cell);
          cell = inRow(heap.peek());
        }
      }
    }
    return true;
  }

  /**
   * Takes the row under the cursor with {@link LatestPutsCollector} when one source is left (a
   * table flushed and compacted into one file, the usual cached scan), leaving the cursor on the
   * next row. False, with the cursor back on the row's first cell and nothing added, when more
   * sources are left or the row needs the matcher.
   *
   * <p>An unencoded file collected in place reads the row from the cursor's first cell once, before
   * it moves, and that cell's bytes stay readable after a collection that gives up (its block is
   * either the cursor's still, or pinned by the row holder, which took the cell): the row is copied
   * into a seek key only then. Other sources (a delta-encoded file rebuilds each key in the scratch
   * the first cell's lies in) have the row copied first.
   */
  private boolean collectLatestPuts(KeyValueHeap heap, CollectedRow out) throws IOException {
    KeyValueScanner source = heap.onlySource();
    if (source == null) {
      return false;
    }
    Cell first = source.peek();
    MemorySegment rowSegment = first.segment();
    long rowOffset = first.rowOffset();
    int rowLength = first.rowLength();
    boolean rowInBlock =
        source instanceof StoreFileScanner file && file.collectsInPlace() && file.cellsLieInBlock();
    Cell rowStart = rowInBlock ? first : seekKey.firstOnRow(rowSegment, rowOffset, rowLength);
    boolean collected =
        LatestPutsCollector.collect(source, rowStart, spec.oldestUnexpiredTimestamp(), spec, out);
    heap.sourceMoved();
    if (!collected) {
      heap.seek(rowInBlock ? seekKey.firstOnRow(rowSegment, rowOffset, rowLength) : rowStart);
    }
    return collected;
  }

  /**
   * Leaves the sift inside the row, on {@code next}, a cell of it, for the next {@link #collectRow}
   * to go on with.
   */
  private boolean stopInRow(Cell next) {
    row.copyIfUnkept(next);
    row.ownCopy();
    stoppedInRow = true;
    return false;
  }

  /** Moves {@code heap} past the row under its cursor without reading it. */
  void skipRow(KeyValueHeap heap) throws IOException {
    stoppedInRow = false;
    row.start();
    row.copyIfUnkept(heap.peek());
    skipRest(heap);
  }

  /**
   * Adds the current cell to {@code out} and returns the holder's cell, which outlives the cursor's
   * moves; the row's first such cell stands for the row.
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
   * Whether two cells of one store have the same qualifier: their families are the store's, so only
   * the qualifiers are compared (a family's length is a field, checked for free).
   */
  private static boolean sameQualifier(Cell cell, Cell other) {
    return cell.familyLength() == other.familyLength()
        && Bytes.equals(
            cell.segment(),
            cell.qualifierOffset(),
            cell.qualifierLength(),
            other.segment(),
            other.qualifierOffset(),
            other.qualifierLength());
  }
}
