package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.Pins;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The row a {@link RowReader} or a {@link RowScanner} read last: its cells, sorted by family,
 * qualifier and newest version first, as views into cached blocks (or the reader's own copies of
 * MemStore cells). Reading it allocates nothing, except through the accessors that say they copy.
 *
 * <p><b>Lifetime.</b> A view, not a copy: it belongs to its reader (or scanner) and shows the row
 * of the last read. It is valid until the next read or the close; after the close every accessor
 * throws {@link IllegalStateException}. Cells taken from it ({@link #cell}, {@link #cells}, {@link
 * #latestCell}) are valid exactly as long. Copy ({@link #getValue}, {@link #copyValue}, {@link
 * #copyRow}, {@link dev.cellar.cell.KeyValue#copyOf}) what must outlive the next read. Not
 * thread-safe: the reader's thread only.
 */
public final class RowView {

  private final CollectedRow row;

  /** What reads into this view ("row reader"), for the message after its close. */
  private final String owner;

  private boolean closed;

  RowView(CollectedRow row, String owner) {
    this.row = row;
    this.owner = owner;
  }

  void close() {
    closed = true;
  }

  private CollectedRow held() {
    if (closed) {
      throw new IllegalStateException("the " + owner + " was closed: its row view is gone");
    }
    return row;
  }

  /** Whether the row had no cell the read selected (or does not exist). */
  public boolean isEmpty() {
    return held().size() == 0;
  }

  /** The number of cells. */
  public int size() {
    return held().size();
  }

  /** The cell at {@code index} (a view). */
  public Cell cell(int index) {
    return held().get(index);
  }

  /** The cells as a list (a view, itself reused by the reader). */
  public List<Cell> cells() {
    return held().cells();
  }

  /** The newest cell of family:qualifier (a view), or null. */
  public Cell latestCell(byte[] family, byte[] qualifier) {
    CollectedRow cells = held();
    for (int i = 0; i < cells.size(); i++) {
      Cell cell = cells.get(i);
      if (Bytes.equals(cell.segment(), cell.familyOffset(), cell.familyLength(), family)
          && Bytes.equals(
              cell.segment(), cell.qualifierOffset(), cell.qualifierLength(), qualifier)) {
        return cell;
      }
    }
    return null;
  }

  /** The length of the newest value of family:qualifier, or -1 if the row has none. */
  public int valueLength(byte[] family, byte[] qualifier) {
    Cell cell = latestCell(family, qualifier);
    return cell == null ? -1 : cell.valueLength();
  }

  /**
   * Copies the newest value of family:qualifier into {@code destination} at {@code offset}; returns
   * its length, or -1 (copying nothing) if the row has none. Allocates nothing.
   *
   * @throws IndexOutOfBoundsException if the value does not fit
   */
  public int copyValue(byte[] family, byte[] qualifier, byte[] destination, int offset) {
    Cell cell = latestCell(family, qualifier);
    if (cell == null) {
      return -1;
    }
    int length = cell.valueLength();
    MemorySegment.copy(
        cell.valueSegment(),
        ValueLayout.JAVA_BYTE,
        cell.valueOffset(),
        destination,
        offset,
        length);
    return length;
  }

  /** The newest value of family:qualifier as a new array (a copy), or null. */
  public byte[] getValue(byte[] family, byte[] qualifier) {
    Cell cell = latestCell(family, qualifier);
    return cell == null ? null : cell.valueArray();
  }

  /**
   * The number of blocks the view pins: those its cells or their values lie in (copies of MemStore
   * cells pin nothing; delta-encoded cells pin the blocks holding their values).
   */
  public int pinnedBuffers() {
    return held().pinnedBuffers();
  }

  /**
   * Whether the cell at {@code index} lies in a block this view pins, so that it stays readable as
   * as a server holding this view's pins keeps them (see {@link #retainPinsInto}), even after the
   * next read; else it is, whole or in its key, the reader's copy (a MemStore or delta-encoded
   * cell), valid until the next read only.
   */
  public boolean isInPinnedBlock(int index) {
    return held().isView(index);
  }

  /**
   * Adds to {@code pins} a reference to each block this view pins, which the owner of {@code pins}
   * drops by releasing it; the cells {@link #isInPinnedBlock lying in those blocks} remain readable
   * until then. Cellar's server reaches it through {@link dev.cellar.spi.ApiAccess}.
   */
  void retainPinsInto(Pins pins) {
    held().retainPinsInto(pins);
  }

  /** The row key as a new array (a copy), or null for an empty row. */
  public byte[] row() {
    return isEmpty() ? null : row.get(0).rowArray();
  }

  /**
   * Copies the row key into {@code destination} at {@code offset}; returns its length, or -1
   * (copying nothing) for an empty row. Allocates nothing.
   *
   * @throws IndexOutOfBoundsException if the key does not fit
   */
  public int copyRow(byte[] destination, int offset) {
    if (isEmpty()) {
      return -1;
    }
    Cell cell = row.get(0);
    int length = cell.rowLength();
    MemorySegment.copy(
        cell.segment(), ValueLayout.JAVA_BYTE, cell.rowOffset(), destination, offset, length);
    return length;
  }

  @Override
  public String toString() {
    return closed ? "RowView[closed]" : "RowView" + row.cells();
  }
}
