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

      @Override
      public List<? extends Cell> next() throws IOException {
        RowView view = scanner.nextView();
        if (view != null && skip != null) {
          byte[] first = skip;
          skip = null;
          if (Arrays.equals(view.row(), first)) {
            view = scanner.nextView();
          }
        }
        skip = null;
        current = view;
        return view == null ? null : view.cells();
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
      public RowView view() {
        return null;
      }

      @Override
      public void close() {}
    };
  }
}
