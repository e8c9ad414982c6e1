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
 * The rows an open scanner walks, a part of a row at a time: a table's rows through Cellar's
 * zero-garbage {@link RowScanner}, which may stop inside a row and go on from there at the next
 * call (as HBase's region server splits rows for clients that take partial results), or a fixed
 * list of hbase:meta rows, always whole. A part's cells are valid until the next call or the close.
 * Not thread-safe: a scanner is used by one call at a time.
 */
interface RowSource extends AutoCloseable {

  /**
   * The next part of a row: the rest of the row the previous call stopped inside ({@link
   * #stoppedInRow()}), else the next row, up to {@code maxCells} cells and until they reach {@code
   * maxBytes} bytes (see {@link dev.cellar.row.RowBudget}); whole rows where the scan's filter
   * needs them. The part that ends a row a previous call stopped inside may be empty. Null at the
   * end.
   */
  List<? extends Cell> nextPart(int maxCells, long maxBytes) throws IOException;

  /**
   * As {@link #nextPart(int, long)}, also stopping once {@code deadlineNanos} ({@link
   * System#nanoTime()}) has passed: with the part so far, or null if it is empty ({@link
   * #stoppedAtDeadline()}); a source that never skips rows or cells ignores the deadline.
   */
  List<? extends Cell> nextPart(int maxCells, long maxBytes, long deadlineNanos) throws IOException;

  /** Whether the last part stopped inside its row, which the next call goes on with. */
  boolean stoppedInRow();

  /** Whether the last timed call returned null at its deadline, cells or rows remaining. */
  boolean stoppedAtDeadline();

  /**
   * After a timed call: the key of the last row the scan examined (a copy), HBase's scan cursor, or
   * null if none.
   */
  byte[] cursorRow();

  /**
   * The part {@link #nextPart} returned last as a table's row view, whose cells may be sent from
   * their blocks' memory; null for rows that are not a table's (hbase:meta's).
   */
  RowView view();

  @Override
  void close();

  /**
   * A table's rows, leaving out a first row equal to {@code excludedStart} (when not null): HBase's
   * scan with its start row excluded. That row can only be the first one the scan reaches, so it is
   * looked for once, in the first part read or, if that call stopped at its deadline inside a row,
   * in the row it stopped in; its parts are then read and dropped to its end.
   */
  static RowSource of(RowScanner scanner, byte[] excludedStart) {
    return new RowSource() {
      private byte[] excluded = excludedStart;
      private boolean dropping;
      private RowView current;
      private boolean timed;
      private long deadlineNanos;
      private int maxCells;
      private long maxBytes;

      @Override
      public List<? extends Cell> nextPart(int maxCells, long maxBytes) throws IOException {
        timed = false;
        return read(maxCells, maxBytes);
      }

      @Override
      public List<? extends Cell> nextPart(int maxCells, long maxBytes, long deadlineNanos)
          throws IOException {
        timed = true;
        this.deadlineNanos = deadlineNanos;
        return read(maxCells, maxBytes);
      }

      private List<? extends Cell> read(int cells, long bytes) throws IOException {
        maxCells = cells;
        maxBytes = bytes;
        RowView part = readPart();
        if (excluded != null) {
          byte[] row =
              part != null ? part.row() : scanner.stoppedInRow() ? scanner.lastSkippedRow() : null;
          dropping = Arrays.equals(row, excluded);
          excluded = null;
        }
        while (dropping && part != null) {
          dropping = scanner.stoppedInRow();
          part = readPart();
        }
        current = part;
        return part == null ? null : part.cells();
      }

      private RowView readPart() throws IOException {
        return timed
            ? scanner.nextPart(maxCells, maxBytes, deadlineNanos)
            : scanner.nextPart(maxCells, maxBytes);
      }

      @Override
      public boolean stoppedInRow() {
        return scanner.stoppedInRow();
      }

      @Override
      public boolean stoppedAtDeadline() {
        return scanner.stoppedAtDeadline();
      }

      @Override
      public byte[] cursorRow() {
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

  /**
   * Rows of hbase:meta made for this scan, each returned whole whatever the limits, {@code onRow}
   * run as each is handed out.
   */
  static RowSource of(List<MetaTable.Row> rows, Runnable onRow) {
    Iterator<MetaTable.Row> iterator = rows.iterator();
    return new RowSource() {
      private byte[] last;

      @Override
      public List<? extends Cell> nextPart(int maxCells, long maxBytes) {
        if (!iterator.hasNext()) {
          return null;
        }
        MetaTable.Row row = iterator.next();
        onRow.run();
        last = row.key();
        return row.cells();
      }

      @Override
      public List<? extends Cell> nextPart(int maxCells, long maxBytes, long deadlineNanos) {
        return nextPart(maxCells, maxBytes);
      }

      @Override
      public boolean stoppedInRow() {
        return false;
      }

      @Override
      public boolean stoppedAtDeadline() {
        return false;
      }

      @Override
      public byte[] cursorRow() {
        return last == null ? null : last.clone();
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
