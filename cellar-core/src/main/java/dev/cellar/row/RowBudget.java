package dev.cellar.row;

import dev.cellar.cell.Cell;

/**
 * How much one part of a row may hold before a part read ({@link RowStream#nextPart}) stops inside
 * the row, as HBase's ScannerContext limits a scan between cells: a number of cells (a scan's
 * batch), a number of cell bytes (a Scan call's result size) and, for a timed read, a deadline.
 *
 * <p>The cell that spends the cells or the bytes is part of the part, as in HBase: a read stops
 * after it, and only if the row has more cells. The deadline is looked at before every {@value
 * #CELLS_PER_DEADLINE_CHECK}th cell a read examines (HBase's default for {@code
 * hbase.cells.scanned.per.heartbeat.check}), as reading the clock per cell would cost more than
 * sifting most cells, and between families; a read therefore examines that many cells before it
 * gives up at a deadline passed already, so every call moves the scan forward.
 *
 * <p>A cell counts {@code 12 + key length + value length} bytes: its KeyValue without tags and the
 * 4-byte length HBase's cell blocks put before it (HBase's estimate of a cell's serialized size,
 * which also counts tags).
 *
 * <p>A budget is reset for each read and reused, so reading allocates nothing. Not thread-safe: one
 * per scanner. {@link #WHOLE_ROW}, which never stops a read, is shared and never changes.
 */
public final class RowBudget {

  /** Cells a read examines between two looks at the deadline. */
  public static final int CELLS_PER_DEADLINE_CHECK = 10_000;

  /** A budget that lets a read take whole rows; never reset, so it can be shared. */
  public static final RowBudget WHOLE_ROW = new RowBudget();

  private boolean limited;
  private int cellsLeft;
  private long bytesLeft;
  private boolean timed;
  private long deadlineNanos;
  private int examined;

  /** A budget that lets a read take whole rows until it is {@link #reset}. */
  public RowBudget() {}

  /**
   * Allows the next read {@code maxCells} cells and {@code maxBytes} bytes, untimed.
   *
   * @throws IllegalArgumentException if either is below 1
   */
  public void reset(int maxCells, long maxBytes) {
    if (this == WHOLE_ROW) {
      throw new IllegalStateException("the whole-row budget is shared and never changes");
    }
    if (maxCells < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "a part holds at least one cell and one byte: "
              + maxCells
              + " cells, "
              + maxBytes
              + " bytes");
    }
    limited = maxCells != Integer.MAX_VALUE || maxBytes != Long.MAX_VALUE;
    cellsLeft = maxCells;
    bytesLeft = maxBytes;
    timed = false;
    examined = 0;
  }

  /**
   * As {@link #reset(int, long)}, the read also stopping once {@code deadlineNanos} (a {@link
   * System#nanoTime()} value) has passed.
   */
  public void reset(int maxCells, long maxBytes, long deadlineNanos) {
    reset(maxCells, maxBytes);
    limited = true;
    timed = true;
    this.deadlineNanos = deadlineNanos;
  }

  /** Whether a read under this budget may stop inside a row. */
  public boolean limited() {
    return limited;
  }

  /** Whether the read has a deadline. */
  public boolean timed() {
    return timed;
  }

  /** The deadline of a {@link #timed()} read. */
  public long deadlineNanos() {
    return deadlineNanos;
  }

  /** The bytes {@code cell} counts for. */
  public static long size(Cell cell) {
    return 12L + cell.keyLength() + cell.valueLength();
  }

  /** Counts {@code cell}, just added to the part; true once the cells or the bytes are spent. */
  public boolean take(Cell cell) {
    if (!limited) {
      return false;
    }
    cellsLeft--;
    bytesLeft -= size(cell);
    return cellsLeft <= 0 || bytesLeft <= 0;
  }

  /**
   * Counts a cell about to be examined; true if this is a cell at which the deadline is looked at,
   * and it has passed.
   */
  public boolean examineAtDeadline() {
    return timed && ++examined % CELLS_PER_DEADLINE_CHECK == 0 && pastDeadline();
  }

  /** Whether the part may take no more: its cells or bytes are spent, or its deadline passed. */
  public boolean spent() {
    return limited && (cellsLeft <= 0 || bytesLeft <= 0 || (timed && pastDeadline()));
  }

  private boolean pastDeadline() {
    return System.nanoTime() - deadlineNanos >= 0;
  }
}
