package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The {@link SeekIndex} of a NONE block: the payload offsets of the block's first cell and of cells
 * at least {@value #MIN_GAP} bytes apart after it, ascending. Immutable and thread-safe.
 *
 * <p>The offsets are those the building seeker reached walking the block with every cell's lengths
 * checked, so the cells they point at are whole; a search reads keys there without checking them
 * again. A key's cell is found by a binary search for the last entry not after it, then a walk of
 * at most {@value #MIN_GAP} bytes of cells plus one.
 */
final class CellOffsets implements SeekIndex {

  /** The payload bytes an entry stands for, at least, per heap byte it takes. */
  static final int PAYLOAD_SHARE = 128;

  /** The fewest payload bytes between two entries: an entry takes 4 bytes. */
  static final int MIN_GAP = PAYLOAD_SHARE * Integer.BYTES;

  private static final long OBJECT_SIZE = 16;
  private static final long ARRAY_HEADER_SIZE = 16;

  /** An upper bound of the heap bytes besides the entries after the first. */
  private static final long FIXED_HEAP_SIZE = 64;

  /** The most heap bytes the index of a block with a payload of {@code payloadSize} bytes takes. */
  static long maxHeapSize(int payloadSize) {
    return payloadSize / PAYLOAD_SHARE + FIXED_HEAP_SIZE;
  }

  private final int[] offsets;

  private CellOffsets(int[] offsets) {
    this.offsets = offsets;
  }

  /** Collects the offsets of a block walked from its first cell, in order. */
  static final class Builder {

    private final int[] offsets;
    private int count;

    /** For a cells region of {@code cellsSize} bytes starting at {@code firstCell}. */
    Builder(int firstCell, int cellsSize) {
      offsets = new int[cellsSize / MIN_GAP + 1];
      offsets[count++] = firstCell;
    }

    /** Notes the cell at {@code offset}, the next one in the block. */
    void cell(int offset) {
      if (offset - offsets[count - 1] >= MIN_GAP) {
        offsets[count++] = offset;
      }
    }

    CellOffsets build() {
      return new CellOffsets(Arrays.copyOf(offsets, count));
    }
  }

  /**
   * Returns {@code index} as a NONE block's index (null stays null).
   *
   * @throws IllegalArgumentException if it is another encoding's index
   */
  static CellOffsets of(SeekIndex index) {
    if (index == null || index instanceof CellOffsets) {
      return (CellOffsets) index;
    }
    throw new IllegalArgumentException("a NONE block's seeker cannot use " + index);
  }

  @Override
  public int count() {
    return offsets.length;
  }

  int offset(int entry) {
    return offsets[entry];
  }

  /** Returns the first entry whose cell starts after {@code position}, or {@link #count()}. */
  int firstAfter(int position) {
    int low = 0;
    int high = offsets.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (offsets[mid] <= position) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  /**
   * Returns the last entry at or after {@code from} whose cell a seek to {@code key} may stop on
   * (see {@link PlainSeeker#qualifies}), or -1 if entry {@code from} is not one (or there is
   * none). Entry {@code from} is tried first, so a seek to a cell close ahead costs one
   * comparison.
   */
  int lastQualifying(Cell key, boolean seekBefore, int from, MemorySegment payload) {
    if (from >= offsets.length || !qualifies(key, seekBefore, offsets[from], payload)) {
      return -1;
    }
    int found = from;
    int low = from + 1;
    int high = offsets.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (qualifies(key, seekBefore, offsets[mid], payload)) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private static boolean qualifies(Cell key, boolean seekBefore, int at, MemorySegment payload) {
    int keyLength = payload.get(ByteLayouts.INT_BE, at);
    return PlainSeeker.qualifies(
        CellComparator.compareKey(key, payload, KeyValueLayout.keyOffset(at), keyLength),
        seekBefore);
  }

  @Override
  public long heapSize() {
    return OBJECT_SIZE + align(ARRAY_HEADER_SIZE + (long) Integer.BYTES * offsets.length);
  }

  private static long align(long size) {
    return (size + 7) & ~7L;
  }

  @Override
  public String toString() {
    return "CellOffsets[" + offsets.length + " entries]";
  }
}
