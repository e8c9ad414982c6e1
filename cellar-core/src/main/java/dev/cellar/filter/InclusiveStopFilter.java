package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Ends the scan after a stop row, keeping the stop row itself, as HBase's InclusiveStopFilter: the
 * first row past the stop row (after it, or before it in a reversed scan) is dropped and ends the
 * scan ({@link #filterAllRemaining}). The row key is compared in place.
 */
public final class InclusiveStopFilter extends Filter {

  private final byte[] stopRow;
  private final MemorySegment stopRowSegment;
  private boolean done;

  /**
   * @param stopRow the last row to return; copied
   */
  public InclusiveStopFilter(byte[] stopRow) {
    this.stopRow = Objects.requireNonNull(stopRow, "stopRow").clone();
    this.stopRowSegment = MemorySegment.ofArray(this.stopRow);
  }

  public byte[] stopRow() {
    return stopRow.clone();
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (done) {
      return true;
    }
    int order =
        Bytes.compare(
            firstRowCell.segment(),
            firstRowCell.rowOffset(),
            firstRowCell.rowLength(),
            stopRowSegment,
            0,
            stopRow.length);
    done = isReversed() ? order < 0 : order > 0;
    return done;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return done ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterAllRemaining() {
    return done;
  }

  @Override
  public String toString() {
    return "InclusiveStopFilter " + Bytes.toStringBinary(stopRow);
  }
}
