package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.store.Pins;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One row read: its cells, sorted by family, qualifier and newest version first.
 *
 * <p><b>Memory.</b> The cells are views into the memory they were read from (cached blocks,
 * MemStore chunks), not copies: the result holds a reference to each block its cells point into,
 * and {@link #close()} drops them. A cell must not be used after its result is closed; {@link
 * #copyCells()} and the {@code byte[]} accessors copy for use beyond that. Not thread-safe.
 */
public final class Result implements AutoCloseable {

  private static final Result EMPTY = new Result(List.of(), null);

  private final List<Cell> cells;
  private final Pins pins;

  Result(List<Cell> cells, Pins pins) {
    this.cells = List.copyOf(cells);
    this.pins = pins;
  }

  static Result empty() {
    return EMPTY;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  /** The cells, as views valid until {@link #close()}. */
  public List<Cell> rawCells() {
    return cells;
  }

  public int size() {
    return cells.size();
  }

  /** The row key (a copy), or null for an empty result. */
  public byte[] row() {
    return cells.isEmpty() ? null : cells.get(0).rowArray();
  }

  /** The newest value of family:qualifier (a copy), or null. */
  public byte[] getValue(byte[] family, byte[] qualifier) {
    Cell cell = latestCell(family, qualifier);
    return cell == null ? null : cell.valueArray();
  }

  /** The newest cell of family:qualifier (a view), or null. */
  public Cell latestCell(byte[] family, byte[] qualifier) {
    MemorySegment familySegment = MemorySegment.ofArray(family);
    MemorySegment qualifierSegment = MemorySegment.ofArray(qualifier);
    for (Cell cell : cells) {
      if (Bytes.equals(cell.segment(), cell.familyOffset(), cell.familyLength(), familySegment, 0,
          family.length)
          && Bytes.equals(cell.segment(), cell.qualifierOffset(), cell.qualifierLength(),
              qualifierSegment, 0, qualifier.length)) {
        return cell;
      }
    }
    return null;
  }

  /** The first cell's value (a copy), or null for an empty result. */
  public byte[] value() {
    return cells.isEmpty() ? null : cells.get(0).valueArray();
  }

  /** Heap copies of the cells, usable after {@link #close()}. */
  public List<KeyValue> copyCells() {
    return cells.stream().map(KeyValue::copyOf).toList();
  }

  /** The number of block and chunk references this result holds. */
  public int pinnedBuffers() {
    return pins == null ? 0 : pins.size();
  }

  /** Drops the references to the memory the cells point into; idempotent. */
  @Override
  public void close() {
    if (pins != null) {
      pins.release();
    }
  }

  @Override
  public String toString() {
    return "Result" + cells;
  }
}
