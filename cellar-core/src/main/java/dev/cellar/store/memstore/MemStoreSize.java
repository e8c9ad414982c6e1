package dev.cellar.store.memstore;

/**
 * The size of a memstore or of one of its segments (HBase's {@code MemStoreSize}).
 *
 * @param dataSize the serialized length of the cells (KeyValue layout, with tags), including copies
 *     that replaced an identical key and sequence id but still occupy chunk space
 * @param heapSize estimated heap bytes: per cell its skip-list entry and cell object, plus the
 *     bytes of cells kept on the heap (see {@code CellFootprint})
 * @param offHeapSize bytes of cells kept in off-heap chunks
 * @param cellsCount distinct cells
 */
public record MemStoreSize(long dataSize, long heapSize, long offHeapSize, int cellsCount) {

  /** Nothing stored. */
  public static final MemStoreSize EMPTY = new MemStoreSize(0, 0, 0, 0);

  /** The sum of two sizes. */
  public MemStoreSize plus(MemStoreSize other) {
    return new MemStoreSize(
        dataSize + other.dataSize,
        heapSize + other.heapSize,
        offHeapSize + other.offHeapSize,
        cellsCount + other.cellsCount);
  }

  /** Heap plus off-heap bytes: what HBase compares with the flush size. */
  public long footprint() {
    return heapSize + offHeapSize;
  }
}
