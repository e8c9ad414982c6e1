package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.search.RowWords;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The {@link SeekIndex} of a NONE block: the block's first cell and cells at least {@value
 * #MIN_GAP} bytes apart after it (rows' first cells where they can be), ascending, each with a word
 * of its row. Immutable and thread-safe.
 *
 * <p><b>Entries.</b> An entry is one {@code long}: the high 32 bits are the {@link RowWords row
 * word} of the cell's row after the prefix every entry's row shares (the common prefix of the first
 * and the last entry's rows, which in a sorted block all rows between share too); the low 32 bits
 * are the cell's payload offset, its top bit set when the cell starts its row. Where words tie, the
 * cell's key is compared in place. Entries are placed at rows' first cells where rows allow ({@link
 * Builder#cell}), so that a Get, which seeks to the first key of its row, finds its row's first
 * cell as the entry after the last one before the key ({@link PlainSeeker#seekToRowStart}), without
 * walking the cells of the row before.
 *
 * <p><b>Layout.</b> Everything lies in one {@code long[]} (recycled: {@link IndexArrays}), so that
 * a seek into a block not touched since it was cached misses on as few cache lines as it can: the
 * index's object, then
 *
 * <pre>
 *   [prefix]   the shared row prefix, 8 bytes per long, big-endian, the last long zero-padded
 *   [summary]  the word of every {@value #GROUP}th entry (entries 0, 8, 16, ...), two per long,
 *              the even group's word in the high half
 *   [entries]  the entries, in order
 * </pre>
 *
 * A block with no words (its rows share more than {@link RowWords#MAX_SHARED} bytes) has neither
 * prefix nor summary.
 *
 * <p><b>Why the words.</b> A binary search over a cached block reads one cell per step, each in
 * another cache line (often another page) of a block that was not touched since it was cached: on a
 * data set larger than the CPU's caches every step is a memory stall. With the words, a search
 * whose key shares the prefix decides most steps on the index alone and reads the block only where
 * words tie, and at the cell it stops on. A seek from the block's start first narrows the search to
 * the entries of one or a few groups with the summary (a line or two), so the binary search that
 * follows stays within a line or two of entries, instead of touching a line per step.
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

  /** Entries per summary word: a group's entries fill one 64-byte cache line. */
  static final int GROUP = 8;

  /** How many times {@link #MIN_GAP} an entry waits for a row's start before it takes any cell. */
  static final int ROW_WAIT = 4;

  /** The bit of an entry's offset half that marks a cell starting its row. */
  private static final int ROW_START = 1 << 31;

  private static final int OFFSET_MASK = ~ROW_START;

  private static final long OBJECT_SIZE = 32;
  private static final long ARRAY_HEADER_SIZE = 16;

  /**
   * An upper bound of the heap bytes besides the entries after the first and the prefix: the
   * object, the array's header and the room its class adds ({@link IndexArrays}).
   */
  private static final long FIXED_HEAP_SIZE = 160 + IndexArrays.CLASS_LONGS * Long.BYTES;

  /** The most heap bytes the index of a block with a payload of {@code payloadSize} bytes takes. */
  static long maxHeapSize(int payloadSize) {
    long entries = payloadSize / MIN_GAP + 1;
    return payloadSize / PAYLOAD_SHARE
        + (entries / GROUP + 2) * Integer.BYTES
        + FIXED_HEAP_SIZE
        + RowWords.MAX_SHARED;
  }

  private final long[] index;
  private final int count;

  /** The length of the rows' shared prefix, or -1 when the entries have no words. */
  private final int shared;

  private final int summaryStart;
  private final int entriesStart;

  private CellOffsets(long[] index, int count, int shared, int summaryStart, int entriesStart) {
    this.index = index;
    this.count = count;
    this.shared = shared;
    this.summaryStart = summaryStart;
    this.entriesStart = entriesStart;
  }

  /**
   * Collects the offsets of a block walked from its first cell, in order. Reused block after block
   * by one seeker (its scratch array grows to the largest block and stays), so building an index
   * allocates only the index.
   */
  static final class Builder {

    private PayloadReader in;
    private MemorySegment payload;
    private int[] offsets = new int[0];
    private int count;

    /**
     * Starts over for the cells region of {@code in}'s payload, {@code cellsSize} bytes starting at
     * {@code firstCell}.
     */
    Builder start(PayloadReader in, int firstCell, int cellsSize) {
      this.in = in;
      this.payload = in.segment();
      int most = cellsSize / MIN_GAP + 1;
      if (offsets.length < most) {
        offsets = new int[most];
      }
      count = 0;
      offsets[count++] = firstCell;
      return this;
    }

    /**
     * Notes the cell at {@code offset}, the next one in the block, whose lengths are checked; the
     * cell before it was at {@code previous}. A cell at least {@value #MIN_GAP} bytes past the last
     * entry becomes one if it starts a row, or in any case once {@value #ROW_WAIT} times that
     * distance is covered (a long row gets entries inside it too).
     *
     * @throws MalformedBlockException if the row of either cell does not fit in its key
     */
    void cell(int offset, int previous) {
      int gap = offset - (offsets[count - 1] & OFFSET_MASK);
      if (gap < MIN_GAP) {
        return;
      }
      if (startsRow(offset, previous)) {
        offsets[count++] = offset | ROW_START;
      } else if (gap >= ROW_WAIT * MIN_GAP) {
        offsets[count++] = offset;
      }
    }

    private boolean startsRow(int offset, int previous) {
      long row = rowOffset(offset);
      long previousRow = rowOffset(previous);
      int length = rowLength(in, offset);
      int previousLength = rowLength(in, previous);
      return length != previousLength
          || MemorySegment.mismatch(
                  payload, row, row + length, payload, previousRow, previousRow + length)
              >= 0;
    }

    /**
     * The index of the cells noted.
     *
     * @throws MalformedBlockException if a noted cell's row does not fit in its key
     */
    CellOffsets build() {
      try {
        return buildIndex();
      } finally {
        in = null;
        payload = null;
      }
    }

    private CellOffsets buildIndex() {
      int firstLength = rowLength(in, offsets[0]);
      long firstRow = rowOffset(offsets[0]);
      int last = offsets[count - 1] & OFFSET_MASK;
      int shared =
          RowWords.sharedLength(
              payload, firstRow, firstLength, payload, rowOffset(last), rowLength(in, last));
      if (shared > RowWords.MAX_SHARED) {
        long[] index = IndexArrays.take(count);
        for (int i = 0; i < count; i++) {
          index[i] = Integer.toUnsignedLong(offsets[i]);
        }
        return new CellOffsets(index, count, -1, 0, 0);
      }
      int prefixLongs = (shared + Long.BYTES - 1) / Long.BYTES;
      int groups = (count + GROUP - 1) / GROUP;
      int entriesStart = prefixLongs + (groups + 1) / 2;
      long[] index = IndexArrays.take(entriesStart + count);
      Arrays.fill(index, 0, entriesStart, 0L);
      for (int i = 0; i < shared; i++) {
        long b = Byte.toUnsignedLong(payload.get(ByteLayouts.BYTE, firstRow + i));
        index[i / Long.BYTES] |= b << (Long.SIZE - Byte.SIZE * (1 + i % Long.BYTES));
      }
      for (int i = 0; i < count; i++) {
        int at = offsets[i] & OFFSET_MASK;
        int word = RowWords.word(payload, rowOffset(at), rowLength(in, at), shared);
        index[entriesStart + i] =
            ((long) word << Integer.SIZE) | Integer.toUnsignedLong(offsets[i]);
        if (i % GROUP == 0) {
          int group = i / GROUP;
          long half = group % 2 == 0 ? (long) word << Integer.SIZE : Integer.toUnsignedLong(word);
          index[prefixLongs + group / 2] |= half;
        }
      }
      return new CellOffsets(index, count, shared, prefixLongs, entriesStart);
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
    return count;
  }

  int offset(int entry) {
    return (int) index[entriesStart + entry] & OFFSET_MASK;
  }

  /**
   * Whether entry {@code entry}'s cell starts its row (the cell before it, in this block, has
   * another row). The block's first cell is never marked: its row may begin in the block before.
   */
  boolean startsRow(int entry) {
    return ((int) index[entriesStart + entry] & ROW_START) != 0;
  }

  private int word(int entry) {
    return (int) (index[entriesStart + entry] >>> Integer.SIZE);
  }

  /** The word of entry {@code group * GROUP}, from the summary. */
  private long summaryWord(int group) {
    long pair = index[summaryStart + group / 2];
    return (group % 2 == 0 ? pair >>> Integer.SIZE : pair) & 0xFFFF_FFFFL;
  }

  /** Returns the first entry whose cell starts after {@code position}, or {@link #count()}. */
  int firstAfter(int position) {
    int low = 0;
    int high = count - 1;
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
   * (see {@link PlainSeeker#qualifies}), or -1 if entry {@code from} is not one (or there is none).
   * Entry {@code from} is tried first, so a seek to a cell close ahead costs one comparison; a seek
   * from the first entry narrows the search with the summary first.
   */
  int lastQualifying(Cell key, boolean seekBefore, int from, MemorySegment payload) {
    long keyWord = keyWord(key);
    if (from >= count || !qualifies(key, keyWord, seekBefore, from, payload)) {
      return -1;
    }
    int found = from;
    int low = from + 1;
    int high = count - 1;
    if (from == 0 && keyWord != RowWords.NONE) {
      int after = firstGroupAfter(keyWord);
      high = Math.min(high, after * GROUP - 1);
      int before = after - 1;
      while (before > 0 && summaryWord(before) == keyWord) {
        before--;
      }
      if (before > 0) {
        found = before * GROUP;
        low = found + 1;
      }
    }
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

  /**
   * The first group whose first entry's word is above {@code keyWord} (that entry and every later
   * one sort after the key), or the number of groups.
   */
  private int firstGroupAfter(long keyWord) {
    int low = 1;
    int high = (count + GROUP - 1) / GROUP - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (summaryWord(mid) <= keyWord) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  private boolean qualifies(
      Cell key, long keyWord, boolean seekBefore, int entry, MemorySegment payload) {
    int byWords = RowWords.compare(keyWord, word(entry));
    if (byWords != 0) {
      return byWords > 0;
    }
    int at = offset(entry);
    int keyLength = payload.get(ByteLayouts.INT_BE, at);
    return PlainSeeker.qualifies(
        CellComparator.compareKey(key, payload, KeyValueLayout.keyOffset(at), keyLength),
        seekBefore);
  }

  /**
   * The word of {@code key}'s row after the shared prefix, unsigned; {@link RowWords#NONE} if the
   * entries have no words or the row does not start with the prefix.
   */
  private long keyWord(Cell key) {
    int rowLength = key.rowLength();
    if (shared < 0 || rowLength < shared) {
      return RowWords.NONE;
    }
    MemorySegment segment = key.segment();
    long row = key.rowOffset();
    int i = 0;
    for (; i + Long.BYTES <= shared; i += Long.BYTES) {
      if (segment.get(ByteLayouts.LONG_BE, row + i) != index[i / Long.BYTES]) {
        return RowWords.NONE;
      }
    }
    for (; i < shared; i++) {
      byte expected =
          (byte) (index[i / Long.BYTES] >>> (Long.SIZE - Byte.SIZE * (1 + i % Long.BYTES)));
      if (segment.get(ByteLayouts.BYTE, row + i) != expected) {
        return RowWords.NONE;
      }
    }
    return Integer.toUnsignedLong(RowWords.word(segment, row, rowLength, shared));
  }

  /** Hands the array to the next index built; this index is not read again. */
  @Override
  public void recycle() {
    IndexArrays.give(index);
  }

  @Override
  public long heapSize() {
    return OBJECT_SIZE + align(ARRAY_HEADER_SIZE + (long) Long.BYTES * index.length);
  }

  private static long align(long size) {
    return (size + 7) & ~7L;
  }

  @Override
  public String toString() {
    return "CellOffsets["
        + count
        + " entries, "
        + (shared < 0 ? "no row words" : shared + " shared row bytes")
        + "]";
  }
}
