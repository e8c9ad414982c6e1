package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One generation of memstore cells: the active segment that takes writes, later the snapshot being
 * flushed (HBase's {@code MutableSegment} and {@code ImmutableSegment}). A skip list ordered by
 * {@link CellComparator#INSTANCE} indexes copies of the cells, kept in the segment's MSLAB (or on
 * the heap when the MSLAB is disabled), with HBase's size accounting.
 *
 * <p><b>Concurrency.</b> {@link #add} runs from many threads at once: the cell is copied first and
 * put in the map afterwards, and the map's insertion publishes the copy, so a reader never reaches
 * a cell whose bytes are not all written. The counters are {@link LongAdder}s and are read without
 * a lock: a size read during writes is approximate, one read after the writers stopped is exact. A
 * copy that lands on a key and sequence id already present replaces the map's entry, key and value
 * (point cursors read keys); its bytes still occupy the MSLAB, so it is counted in the sizes (not
 * in the cell count), as in HBase.
 *
 * <p><b>Ownership.</b> The segment owns its MSLAB: {@link #close()} closes it, and the chunks go
 * back to the pool once the cursors opened by {@link #cursor} are closed too.
 */
final class Segment {

  private final ConcurrentSkipListMap<Cell, Cell> cells =
      new ConcurrentSkipListMap<>(CellComparator.INSTANCE);

  /** Null when the MSLAB is disabled: cells are then copied to the heap one by one. */
  private final MemStoreLAB lab;

  private final LongAdder dataSize = new LongAdder();
  private final LongAdder heapSize = new LongAdder();
  private final LongAdder offHeapSize = new LongAdder();
  private final LongAdder cellsCount = new LongAdder();
  private volatile boolean closed;

  Segment(MemStoreLAB lab) {
    this.lab = lab;
  }

  /**
   * Copies {@code cell} in with {@code sequenceId}, a timestamp of {@link
   * KeyValue#LATEST_TIMESTAMP} becoming {@code latestTimestamp}; the caller may reuse its memory
   * afterwards.
   */
  void add(Cell cell, long sequenceId, long latestTimestamp) {
    Cell copy =
        lab != null
            ? lab.copyCellInto(cell, sequenceId, latestTimestamp)
            : KeyValue.copyOf(cell, latestTimestamp).withSequenceId(sequenceId);
    boolean added = cells.put(copy, copy) == null;
    if (!added) {
      // The map kept the first copy as the key: replace the entry, so that keys and values are
      // the same cells (point cursors read keys). A duplicate carries the sequence id of the
      // mutation being applied, which no reader sees before that mutation completes.
      cells.remove(copy);
      cells.put(copy, copy);
    }
    if (added) {
      cellsCount.increment();
    }
    if (added || lab != null) {
      dataSize.add(copy.length());
      heapSize.add(CellFootprint.heapSize(copy));
      offHeapSize.add(CellFootprint.offHeapSize(copy));
    }
  }

  /**
   * A cursor over the cells with a sequence id at most {@code readPoint}, holding the MSLAB until
   * it is closed.
   *
   * @throws IllegalStateException if the segment was closed
   */
  CellCursor cursor(long readPoint) {
    if (closed) {
      throw new IllegalStateException("cursor opened on a closed memstore segment");
    }
    if (lab != null) {
      lab.incScannerCount();
    }
    return new SegmentCursor(cells, readPoint, lab);
  }

  /** Opens {@code cursor} over the cells visible at {@code readPoint} (see {@link #cursor}). */
  void openPoint(PointCursor cursor, long readPoint) {
    if (closed) {
      throw new IllegalStateException("cursor opened on a closed memstore segment");
    }
    cursor.open(cells, lab, readPoint);
  }

  boolean isEmpty() {
    return cells.isEmpty();
  }

  /** Heap plus off-heap bytes, as {@link MemStoreSize#footprint()}, without building a size. */
  long footprint() {
    return heapSize.sum() + offHeapSize.sum();
  }

  MemStoreSize size() {
    return new MemStoreSize(
        dataSize.sum(), heapSize.sum(), offHeapSize.sum(), (int) cellsCount.sum());
  }

  /** Ends the segment: its memory is released once no cursor over it is open. */
  void close() {
    closed = true;
    if (lab != null) {
      lab.close();
    }
  }
}
