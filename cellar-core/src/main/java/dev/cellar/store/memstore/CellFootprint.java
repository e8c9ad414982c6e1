package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;

/**
 * What one cell stored in a segment costs, on the heap and off it, as HBase's {@code Segment}
 * accounts it: the skip-list entry that indexes the cell, the cell object, and the cell's bytes
 * wherever they live (off-heap for a cell in a pooled chunk, on the heap for a cell in a heap chunk
 * or a heap copy).
 *
 * <p>The object sizes are estimates for a 64-bit JVM with compressed references (12-byte headers,
 * 4-byte references, 8-byte alignment: any heap below 32 GiB); HBase's {@code ClassSize} measures
 * the running JVM instead. They are constants so that accounting a cell costs nothing more. The
 * memstore's throughput test prints the measured heap allocation per add beside them (84 bytes
 * measured against 88 accounted for a cell in a pooled chunk). Stateless.
 */
final class CellFootprint {

  /**
   * One skip-list node (header, key, value, next) plus half an index node on average: HBase's
   * {@code ClassSize.CONCURRENT_SKIPLISTMAP_ENTRY}.
   */
  static final int SKIP_LIST_ENTRY = 40;

  /** A {@link ChunkCell}: header, one reference, four ints, three shorts and a long, aligned. */
  static final int CHUNK_CELL = 48;

  /** A heap {@code KeyValue}: header, two references, five ints and a long. */
  static final int KEY_VALUE = 48;

  /** The heap {@code MemorySegment} a {@code KeyValue} holds over its array. */
  static final int HEAP_SEGMENT = 40;

  /** An array's header. */
  static final int ARRAY_HEADER = 16;

  private CellFootprint() {}

  /** Heap bytes that storing {@code copy} (as returned by the MSLAB or a heap copy) adds. */
  static long heapSize(Cell copy) {
    if (copy instanceof ChunkCell) {
      return SKIP_LIST_ENTRY + CHUNK_CELL + (copy.segment().isNative() ? 0 : copy.length());
    }
    return SKIP_LIST_ENTRY + KEY_VALUE + HEAP_SEGMENT + align(ARRAY_HEADER + copy.length());
  }

  /** Off-heap bytes that storing {@code copy} adds: its length if it lives in off-heap memory. */
  static long offHeapSize(Cell copy) {
    return copy.segment().isNative() ? copy.length() : 0;
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
