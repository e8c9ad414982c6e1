package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The comparator's hot path allocates nothing, whether cells live on or off the heap. */
class CellComparatorAllocationTest {

  private static final int COMPARISONS = 200_000;

  @Test
  void comparingCellsAndRawKeysAllocatesNothing() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    List<KeyValue> heap =
        RandomCells.generate(new Random(1), 64).stream().map(RandomCells.Spec::toKeyValue).toList();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = arena.allocate(64 * 1024);
      KeyValueCell[] offHeap = new KeyValueCell[heap.size()];
      long position = 0;
      for (int i = 0; i < heap.size(); i++) {
        KeyValue cell = heap.get(i);
        MemorySegment.copy(cell.segment(), 0, block, position, cell.length());
        offHeap[i] = new KeyValueCell(block, position, cell.length(), false, i);
        position += cell.length();
      }
      long checksum = compareMany(heap, offHeap, block);
      long before = threads.getCurrentThreadAllocatedBytes();
      checksum += compareMany(heap, offHeap, block);
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(
          allocated < 1024,
          allocated
              + " bytes allocated by "
              + COMPARISONS
              + " comparisons (checksum "
              + checksum
              + ")");
    }
  }

  private static long compareMany(
      List<KeyValue> heap, KeyValueCell[] offHeap, MemorySegment block) {
    long sum = 0;
    int n = offHeap.length;
    for (int i = 0; i < COMPARISONS; i++) {
      KeyValue left = heap.get(i % n);
      KeyValueCell right = offHeap[(i * 7 + 3) % n];
      sum += CellComparator.INSTANCE.compare(left, right);
      sum += CellComparator.compareKey(left, block, right.keyOffset(), right.keyLength());
    }
    return sum;
  }
}
