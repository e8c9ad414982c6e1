package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.RowWords;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The {@link SeekIndex} of a NONE block: the block's first cell and cells at least {@value
 * #MIN_GAP} bytes apart after it, ascending, each with a word of its row. Immutable and
 * thread-safe.
 *
 * <p><b>Entries.</b> An entry is one {@code long}: the high 32 bits are the {@link RowWords row
 * word} of the cell's row after the prefix every entry's row shares ({@link #sharedRow}, the
 * common prefix of the first and the last entry's rows, which in a sorted block all rows between
 * share too); the low 32 bits are the cell's payload offset. Where words tie, the cell's key is
 * compared in place.
 *
 * <p><b>Why the words.</b> A binary search over a cached block reads one cell per step, each in
 * another cache line (often another page) of a block that was not touched since it was cached: on
 * a data set larger than the CPU's caches every step is a memory stall. With the words, a search
 * whose key shares the prefix decides most steps on the entries array alone (a few cache lines)
 * and reads the block only where words tie, and at the cell it stops on.
 *
 * <p>The offsets are those the building seeker reached walking the block with every cell's lengths
 * checked, so the cells they point at are whole; a search reads keys there without checking them
 * again. A key's cell is found by a binary search for the last entry not after it, then a walk of
 * at most {@value #MIN_GAP} bytes of cells plus one.
 */
final class CellOffsets implements SeekIndex {

  /** The payload bytes an entry stands for, at least, per heap byte it takes. */
  static final int PAYLOAD_SHARE = 64;

  /** The fewest payload bytes between two entries: an entry takes 8 bytes. */
  static final int MIN_GAP = PAYLOAD_SHARE * Long.BYTES;

  private static final long OBJECT_SIZE = 24;
  private static final long ARRAY_HEADER_SIZE = 16;

  /** A heap memory segment over an array: header, base, offset, length, flags, scope. */
  private static final long SEGMENT_SIZE = 48;

  /** An upper bound of the heap bytes besides the entries after the first and the shared row. */
  private static final long FIXED_HEAP_SIZE = 160;

  /** The most heap bytes the index of a block with a payload of {@code payloadSize} bytes takes. */
  static long maxHeapSize(int payloadSize) {
    return payloadSize / PAYLOAD_SHARE + FIXED_HEAP_SIZE + RowWords.MAX_SHARED;
  }

  private final long[] entries;
  /** The prefix all entries' rows share, or null if it is longer than {@link RowWords#MAX_SHARED}. */
  private final MemorySegment sharedRow;

  private CellOffsets(long[] entries, MemorySegment sharedRow) {
    this.entries = entries;
    this.sharedRow = sharedRow;
  }

  /** Collects the offsets of a block walked from its first cell, in order. */
  static final class Builder {

    private final MemorySegment payload;
    private final int[] offsets;
    private int count;

    /**
     * For the cells region of {@code payload}, {@code cellsSize} bytes starting at {@code
     * firstCell}.
     */
    Builder(MemorySegment payload, int firstCell, int cellsSize) {
      this.payload = payload;
      offsets = new int[cellsSize / MIN_GAP + 1];
      offsets[count++] = firstCell;
    }

    /** Notes the cell at {@code offset}, the next one in the block. */
    void cell(int offset) {
      if (offset - offsets[count - 1] >= MIN_GAP) {
        offsets[count++] = offset;
      }
    }

    /**
     * The index of the cells noted.
     *
     * @throws MalformedBlockException if a noted cell's row does not fit in its key
     */
    CellOffsets build(PayloadReader in) {
      int firstLength = rowLength(in, offsets[0]);
      long firstRow = rowOffset(offsets[0]);
      int shared = RowWords.sharedLength(payload, firstRow, firstLength,
          payload, rowOffset(offsets[count - 1]), rowLength(in, offsets[count - 1]));
      long[] entries = new long[count];
      boolean worded = shared <= RowWords.MAX_SHARED;
      for (int i = 0; i < count; i++) {
        int at = offsets[i];
        int word = worded ? RowWords.word(payload, rowOffset(at), rowLength(in, at), shared) : 0;
        entries[i] = ((long) word << Integer.SIZE) | at;
      }
      return new CellOffsets(entries,
          worded ? RowWords.sharedPrefix(payload, firstRow, shared) : null);
    }

    /** The row length of the (whole) cell at {@code at}, checked against its key length. */
    private int rowLength(PayloadReader in, int at) {
      int keyLength = KeyValueLayout.keyLength(payload, at);
      int rowLength = KeyValueLayout.rowLength(payload, KeyValueLayout.keyOffset(at));
      int most = keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
      if (rowLength < 0 || rowLength > most) {
        throw in.malformed(at, "a row length between 0 and " + most, "row length " + rowLength);
      }
      return rowLength;
    }

    private static long rowOffset(int at) {
      return KeyValueLayout.rowOffset(KeyValueLayout.keyOffset(at));
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
    return entries.length;
  }

  int offset(int entry) {
    return (int) entries[entry];
  }

  /** Returns the first entry whose cell starts after {@code position}, or {@link #count()}. */
  int firstAfter(int position) {
    int low = 0;
    int high = entries.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (offset(mid) <= position) {
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
    long keyWord = RowWords.keyWord(key, sharedRow);
    if (from >= entries.length || !qualifies(key, keyWord, seekBefore, from, payload)) {
      return -1;
    }
    int found = from;
    int low = from + 1;
    int high = entries.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (qualifies(key, keyWord, seekBefore, mid, payload)) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private boolean qualifies(
      Cell key, long keyWord, boolean seekBefore, int entry, MemorySegment payload) {
    int byWords = RowWords.compare(keyWord, (int) (entries[entry] >>> Integer.SIZE));
    if (byWords != 0) {
      return byWords > 0;
    }
    int at = offset(entry);
    int keyLength = payload.get(ByteLayouts.INT_BE, at);
    return PlainSeeker.qualifies(
        CellComparator.compareKey(key, payload, KeyValueLayout.keyOffset(at), keyLength),
        seekBefore);
  }

  @Override
  public long heapSize() {
    return OBJECT_SIZE + align(ARRAY_HEADER_SIZE + (long) Long.BYTES * entries.length)
        + (sharedRow == null ? 0 : SEGMENT_SIZE + align(ARRAY_HEADER_SIZE + sharedRow.byteSize()));
  }

  private static long align(long size) {
    return (size + 7) & ~7L;
  }

  @Override
  public String toString() {
    return "CellOffsets[" + entries.length + " entries, "
        + (sharedRow == null ? "no row words" : sharedRow.byteSize() + " shared row bytes") + "]";
  }
}
