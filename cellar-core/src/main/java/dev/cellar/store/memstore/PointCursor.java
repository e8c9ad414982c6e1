package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.memory.Buf;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * A reusable forward cursor over one segment for point reads: it navigates the skip list by key
 * ({@code ceilingKey}, {@code higherKey}) instead of through an iterator, so opening, seeking and
 * moving allocate nothing, at the price of a skip-list descent per move (a point read moves a few
 * times; scans use {@link SegmentCursor}). Only cells whose sequence id is at most the read point
 * are shown. Backward moves are not supported.
 *
 * <p><b>Concurrency.</b> Writers keep adding while the cursor moves; every key it lands on was put
 * in the map after its bytes were copied, and a cell visible at the read point was added before
 * that read point was handed out, so what the cursor shows at the read point is complete.
 *
 * <p><b>Memory.</b> Between {@link MemStore#openPointCursors} and {@link #close()} the cursor holds
 * a scanner reference on the segment's MSLAB, so the cells it shows stay readable even if the
 * segment is flushed and cleared meanwhile; a cell kept after {@link #close()} must be copied.
 * Confined to one thread, reopened for every read.
 */
public final class PointCursor implements CellCursor {

  private ConcurrentNavigableMap<Cell, Cell> cells;
  private MemStoreLAB lab;
  private long readPoint;
  private Cell current;

  /** Opens the cursor on a segment the memstore's lock keeps open; no cell is current yet. */
  void open(
      ConcurrentNavigableMap<Cell, Cell> segmentCells,
      MemStoreLAB segmentLab,
      long visibleReadPoint) {
    if (segmentLab != null) {
      segmentLab.incScannerCount();
    }
    this.cells = segmentCells;
    this.lab = segmentLab;
    this.readPoint = visibleReadPoint;
    this.current = null;
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Buf pinOfCurrent() {
    return lab != null && current instanceof ChunkCell ? lab.pinHandle() : null;
  }

  @Override
  public Cell next() {
    Cell cell = current;
    if (cell != null) {
      current = visibleFrom(cells.higherKey(cell));
    }
    return cell;
  }

  @Override
  public boolean seek(Cell key) {
    ensureOpen();
    current = visibleFrom(cells.ceilingKey(key));
    return current != null;
  }

  @Override
  public boolean reseek(Cell key) {
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
    throw new UnsupportedOperationException("a point cursor moves forward only");
  }

  private Cell visibleFrom(Cell cell) {
    while (cell != null && cell.sequenceId() > readPoint) {
      cell = cells.higherKey(cell);
    }
    return cell;
  }

  /** Drops the scanner reference on the segment's MSLAB; the cursor may be opened again. */
  @Override
  public void close() {
    if (cells == null) {
      return;
    }
    cells = null;
    current = null;
    if (lab != null) {
      lab.decScannerCount();
      lab = null;
    }
  }

  private void ensureOpen() {
    if (cells == null) {
      throw new IllegalStateException("point cursor is not open");
    }
  }
}
