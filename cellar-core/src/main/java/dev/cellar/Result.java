package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.Pins;
import java.util.List;

/**
 * One row read: its cells, sorted by family, qualifier and newest version first.
 *
 * <p><b>Memory.</b> The cells are views into the memory they were read from (cached blocks,
 * MemStore chunks), not copies: the result holds a reference to each block its cells point into,
 * and {@link #close()} drops them. After the close every accessor throws {@link
 * IllegalStateException}, and a cell taken from the result before must not be used; {@link
 * #copyCells()} and the {@code byte[]} accessors copy for use beyond that.
 *
 * <p><b>A forgotten close</b> does not pin the blocks for ever: a result that pins memory is
 * guarded, and once it is garbage collected unclosed its blocks are released and the leak is
 * logged. Closing promptly remains the way to give the memory back early. A result pinning one
 * buffer (a Get's cells in one block) holds it in its guard, with no {@link Pins}. Not thread-safe.
 */
public final class Result implements AutoCloseable {

  private static final Result EMPTY = new Result(List.of(), (Pins) null);

  private final List<Cell> cells;

  /** Holds and releases the pinned memory; null when the cells pin none. */
  private final LeakGuard.Pinning guard;

  private boolean closed;

  /** A result of {@code cells}, which point into the buffers {@code pins} holds (or none). */
  Result(List<Cell> cells, Pins pins) {
    this.cells = List.copyOf(cells);
    this.guard = pins != null && pins.size() > 0 ? LeakGuard.ofPins(this, pins) : null;
  }

  /** A result of {@code cells}, which point into {@code pinned}, whose reference it takes over. */
  Result(List<Cell> cells, Buf pinned) {
    this.cells = List.copyOf(cells);
    this.guard = LeakGuard.ofBuf(this, pinned);
  }

  /**
   * The cells of {@code row}, detached, taking over its pins (the caller then clears the row): the
   * one buffer most rows pin is held without a {@link Pins}. A row of copies only (its keys copied
   * out of delta-encoded blocks, their values with them now) needs none of its pins.
   */
  static Result detach(CollectedRow row) {
    List<Cell> cells = row.detachCells();
    if (!row.holdsViews()) {
      return new Result(cells, (Pins) null);
    }
    Buf sole = row.handOverSolePin();
    if (sole != null) {
      return new Result(cells, sole);
    }
    Pins pins = null;
    if (row.pinnedBuffers() > 0) {
      pins = new Pins();
      row.movePinsInto(pins);
    }
    return new Result(cells, pins);
  }

  static Result empty() {
    return EMPTY;
  }

  private List<Cell> cells() {
    if (closed) {
      throw new IllegalStateException("the result was closed: its cells' memory was released");
    }
    return cells;
  }

  public boolean isEmpty() {
    return cells().isEmpty();
  }

  /** The cells, as views valid until {@link #close()}. */
  public List<Cell> rawCells() {
    return cells();
  }

  public int size() {
    return cells().size();
  }

  /** The row key (a copy), or null for an empty result. */
  public byte[] row() {
    return isEmpty() ? null : cells.get(0).rowArray();
  }

  /** The newest value of family:qualifier (a copy), or null. */
  public byte[] getValue(byte[] family, byte[] qualifier) {
    Cell cell = latestCell(family, qualifier);
    return cell == null ? null : cell.valueArray();
  }

  /** The newest cell of family:qualifier (a view), or null. */
  public Cell latestCell(byte[] family, byte[] qualifier) {
    List<Cell> all = cells();
    for (int i = 0; i < all.size(); i++) {
      Cell cell = all.get(i);
      if (Bytes.equals(cell.segment(), cell.familyOffset(), cell.familyLength(), family)
          && Bytes.equals(
              cell.segment(), cell.qualifierOffset(), cell.qualifierLength(), qualifier)) {
        return cell;
      }
    }
    return null;
  }

  /** The first cell's value (a copy), or null for an empty result. */
  public byte[] value() {
    return isEmpty() ? null : cells.get(0).valueArray();
  }

  /** Heap copies of the cells, usable after {@link #close()}. */
  public List<KeyValue> copyCells() {
    return cells().stream().map(KeyValue::copyOf).toList();
  }

  /** The number of block and chunk references this result holds. */
  public int pinnedBuffers() {
    return guard == null ? 0 : guard.pinnedBuffers();
  }

  /** Drops the references to the memory the cells point into; idempotent. */
  @Override
  public void close() {
    if (this == EMPTY || closed) {
      return;
    }
    closed = true;
    if (guard != null) {
      guard.close();
    }
  }

  @Override
  public String toString() {
    return closed ? "Result[closed]" : "Result" + cells;
  }
}
