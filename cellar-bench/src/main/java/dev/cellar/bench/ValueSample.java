package dev.cellar.bench;

import dev.cellar.cell.Cell;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;

/**
 * What the HFile benchmarks read of the cell a seek or a scan lands on, the same for Cellar and
 * HBase: the value's length plus its first and last byte, read in place.
 */
final class ValueSample {

  private ValueSample() {}

  static long of(Cell cell) {
    MemorySegment value = cell.valueSegment();
    long at = cell.valueOffset();
    int length = cell.valueLength();
    return length + value.get(ByteLayouts.BYTE, at) + value.get(ByteLayouts.BYTE, at + length - 1);
  }

  /** Reads an off-heap cell's value through its buffer, as HBase's own code does. */
  static long of(org.apache.hadoop.hbase.Cell cell) {
    int length = cell.getValueLength();
    if (cell instanceof ByteBufferExtendedCell offHeap) {
      ByteBuffer value = offHeap.getValueByteBuffer();
      int at = offHeap.getValuePosition();
      return length + value.get(at) + value.get(at + length - 1);
    }
    byte[] value = cell.getValueArray();
    int at = cell.getValueOffset();
    return length + value[at] + value[at + length - 1];
  }
}
