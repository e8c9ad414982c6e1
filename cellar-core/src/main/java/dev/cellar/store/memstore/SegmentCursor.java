package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * A {@link CellCursor} over one segment's skip list that shows only cells whose sequence id is at
 * most its read point (HBase's {@code SegmentScanner}).
 *
 * <p><b>Concurrency.</b> Writers keep adding to the segment while the cursor iterates. The skip
 * list's iterators are weakly consistent: a cell added after the cursor passed its position is not
 * seen, one added ahead may or may not be; either way every cell seen was fully copied before it
 * was put in the map, and order is preserved. A cell visible at the read point was added before the
 * read point was handed out, so the read point's view is complete. The cursor itself is confined to
 * one thread.
 *
 * <p><b>Memory.</b> The cursor holds a scanner reference on the segment's MSLAB (taken by the
 * segment when it opened the cursor) and drops it in {@link #close()}: until then the chunks behind
 * every cell it returned stay alive, even if the segment was flushed and cleared meanwhile.
 */
final class SegmentCursor implements CellCursor {

  private final ConcurrentNavigableMap<Cell, Cell> cells;
  private final long readPoint;

  /** The MSLAB this cursor holds a scanner reference on; null for a segment without one. */
  private final MemStoreLAB lab;

  private Iterator<Cell> iterator;
  private Cell current;
  private boolean closed;

  SegmentCursor(ConcurrentNavigableMap<Cell, Cell> cells, long readPoint, MemStoreLAB lab) {
    this.cells = cells;
    this.readPoint = readPoint;
    this.lab = lab;
    this.iterator = cells.values().iterator();
    advance();
  }

  @Override
  public Cell peek() {
    ensureOpen();
    return current;
  }

  @Override
  public Buf pinOfCurrent() {
    ensureOpen();
    return lab != null && current instanceof ChunkCell ? lab.pinHandle() : null;
  }

  @Override
  public Cell next() {
    ensureOpen();
    Cell cell = current;
    if (cell != null) {
      advance();
    }
    return cell;
  }

  @Override
  public boolean seek(Cell key) {
    ensureOpen();
    iterator = cells.tailMap(key, true).values().iterator();
    advance();
    return current != null;
  }

  @Override
  public boolean reseek(Cell key) {
    ensureOpen();
    if (current == null) {
      return false;
    }
    if (CellComparator.INSTANCE.compare(current, key) >= 0) {
      return true;
    }
    return seek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    ensureOpen();
    Cell bound = key == null ? null : KeyValue.firstOnRow(key.rowArray());
    for (; ; ) {
      Cell before = bound == null ? lastKey() : cells.lowerKey(bound);
      if (before == null) {
        current = null;
        return false;
      }
      Cell rowStart = KeyValue.firstOnRow(before.rowArray());
      if (seek(rowStart) && CellComparator.compareRows(current, before) == 0) {
        return true;
      }
      bound = rowStart;
    }
  }

  private Cell lastKey() {
    Map.Entry<Cell, Cell> last = cells.lastEntry();
    return last == null ? null : last.getKey();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    current = null;
    iterator = null;
    if (lab != null) {
      lab.decScannerCount();
    }
  }

  /** Moves to the next cell visible at the read point, or to the end. */
  private void advance() {
    while (iterator.hasNext()) {
      Cell cell = iterator.next();
      if (cell.sequenceId() <= readPoint) {
        current = cell;
        return;
      }
    }
    current = null;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("memstore cursor is closed");
    }
  }
}
