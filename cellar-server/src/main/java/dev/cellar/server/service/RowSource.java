package dev.cellar.server.service;

import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.cell.Cell;
import dev.cellar.server.catalog.MetaTable;
import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The rows an open scanner walks: a table's rows through Cellar's zero-garbage {@link RowScanner},
 * or a fixed list of hbase:meta rows. A row's cells are valid until the next call or the close.
 * Not thread-safe: a scanner is used by one call at a time.
 */
interface RowSource extends AutoCloseable {

  /** The next row's cells, or null at the end. */
  List<? extends Cell> next() throws IOException;

  /**
   * The next row's cells, or null at the end or once {@code deadlineNanos} ({@link
   * System#nanoTime()}) passed while rows were skipped ({@link #stoppedAtDeadline()}); a source
   * that never skips rows ignores the deadline.
   */
  List<? extends Cell> next(long deadlineNanos) throws IOException;

  /** Whether the last {@link #next(long)} returned null at its deadline, rows remaining. */
  boolean stoppedAtDeadline();

  /** After a call {@link #stoppedAtDeadline()}: the key of the last row skipped (a copy). */
  byte[] lastSkippedRow();

  /**
   * The row {@link #next()} returned last as a table's row view, whose cells may be sent from
   * their blocks' memory; null for rows that are not a table's (hbase:meta's).
   */
  RowView view();

  @Override
  void close();

  /** A table's rows, skipping a first row equal to {@code excludedStart} (when not null). */
  static RowSource of(RowScanner scanner, byte[] excludedStart) {
    return new RowSource() {
      private byte[] skip = excludedStart;
      private RowView current;
      private boolean timed;
      private long deadlineNanos;

      @Override
      public List<? extends Cell> next() throws IOException {
        timed = false;
        return read();
      }

      @Override
      public List<? extends Cell> next(long deadlineNanos) throws IOException {
        timed = true;
        this.deadlineNanos = deadlineNanos;
        return read();
      }

      /**
       * The next row; the start row to exclude can only be the first row the scan reaches, so it
       * is looked for once, whether that first call returned a row or stopped after skipping it.
       */
      private List<? extends Cell> read() throws IOException {
        RowView view = nextView();
        if (view != null && skip != null) {
          byte[] first = skip;
          skip = null;
          if (Arrays.equals(view.row(), first)) {
            view = nextView();
          }
        }
        skip = null;
        current = view;
        return view == null ? null : view.cells();
      }

      private RowView nextView() throws IOException {
        return timed ? scanner.nextView(deadlineNanos) : scanner.nextView();
      }

      @Override
      public boolean stoppedAtDeadline() {
        return scanner.stoppedAtDeadline();
      }

      @Override
      public byte[] lastSkippedRow() {
        return scanner.lastSkippedRow();
      }

      @Override
      public RowView view() {
        return current;
      }

      @Override
      public void close() {
        scanner.close();
      }
    };
  }

  /** Rows of hbase:meta made for this scan. */
  static RowSource of(List<MetaTable.Row> rows) {
    Iterator<MetaTable.Row> iterator = rows.iterator();
    return new RowSource() {
      @Override
      public List<? extends Cell> next() {
        return iterator.hasNext() ? iterator.next().cells() : null;
      }

      @Override
      public List<? extends Cell> next(long deadlineNanos) {
        return next();
      }

      @Override
      public boolean stoppedAtDeadline() {
        return false;
      }

      @Override
      public byte[] lastSkippedRow() {
        throw new IllegalStateException("hbase:meta's rows are never skipped");
      }

      @Override
      public RowView view() {
        return null;
      }

      @Override
      public void close() {}
    };
  }
}
