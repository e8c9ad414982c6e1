package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.RowWords;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The {@link SeekIndex} of a PREFIX, DIFF or FAST_DIFF block: cells spread over the block from
 * which a {@link DeltaSeeker} resumes decoding, as restart points would let it if HBase's formats
 * had any. Immutable and thread-safe.
 *
 * <p>Each checkpoint is a cell after the block's first, taken once the cells since the previous
 * checkpoint (or the first cell) span at least {@value #ROW_SHARE} times the checkpoint's heap
 * bytes ({@value #ENTRY_SIZE} plus its key) if the cell starts its row, or {@value
 * #PAYLOAD_SHARE} times if not (a long row gets checkpoints inside it too), and records what
 * decoding the cell
 * left: its whole key, copied into one array of keys, where its value lies in the payload (a
 * FAST_DIFF cell repeating its predecessor's value points back at it), and where its suffix (tags,
 * mvcc) starts. Restoring a checkpoint makes it the seeker's current cell, from which the next cell
 * decodes as it would have in a walk from the block's start. Tags compressed with a dictionary
 * would need the dictionary's state too, so such blocks are not indexed.
 *
 * <p><b>Row starts.</b> A checkpoint at a row's first cell is marked, so that a Get, which seeks
 * to the first key of its row, restores its row's first cell straight from the index ({@link
 * DeltaSeeker#seekToRowStart}) instead of restoring the checkpoint before it and decoding the
 * cells of the rows between (with wide rows, a whole row of cells per Get).
 *
 * <p>Layout of {@link #entries}, {@value #FIELDS} ints per checkpoint, in block order:
 *
 * <pre>
 *  start        payload offset where the cell's encoded bytes start; the top bit set when the
 *               cell starts its row
 *  keyAt        where its key starts in {@link #keys}
 *  keyLength    the key's length (the KeyValue key: row length to type)
 *  valueOffset  payload offset of its value
 *  valueLength  its value's length
 *  suffixAt     payload offset of its tags length (or mvcc, or the next cell)
 * </pre>
 */
final class Checkpoints implements SeekIndex {

  private static final int START = 0;
  private static final int KEY_AT = 1;
  private static final int KEY_LENGTH = 2;
  private static final int VALUE_OFFSET = 3;
  private static final int VALUE_LENGTH = 4;
  private static final int SUFFIX_AT = 5;
  private static final int FIELDS = 6;
  private static final int ROW_START = 1 << 31;

  /** Heap bytes of a checkpoint besides its key: its fields and its row word. */
  static final int ENTRY_SIZE = FIELDS * Integer.BYTES + RowWords.BYTES;

  /** The payload bytes a checkpoint inside a row stands for, at least, per heap byte it takes. */
  static final int PAYLOAD_SHARE = 64;

  /** The payload bytes a checkpoint at a row's first cell stands for, at least, per heap byte. */
  static final int ROW_SHARE = 8;

  private static final long OBJECT_SIZE = 24;
  private static final long SEGMENT_SIZE = 48;
  private static final long ARRAY_HEADER_SIZE = 16;

  /** An upper bound of the heap bytes besides the checkpoints. */
  private static final long FIXED_HEAP_SIZE = 192;

  /** The most heap bytes the index of a block with a payload of {@code payloadSize} bytes takes. */
  static long maxHeapSize(int payloadSize) {
    return payloadSize / ROW_SHARE + FIXED_HEAP_SIZE;
  }

  private final int[] entries;
  private final byte[] keys;
  private final MemorySegment keySegment;
  /**
   * Each checkpoint's {@link RowWords row word} after the rows' shared prefix, in an array of its
   * own so that a binary search reads a line or two of words rather than a key per step; null
   * when the rows share more than {@link RowWords#MAX_SHARED} bytes.
   */
  private final int[] words;
  /** The shared prefix, a view of the first checkpoint's row; null without words. */
  private final MemorySegment sharedRow;

  private Checkpoints(int[] entries, byte[] keys) {
    this.entries = entries;
    this.keys = keys;
    this.keySegment = MemorySegment.ofArray(keys);
    int count = entries.length / FIELDS;
    int shared = count == 0 ? RowWords.MAX_SHARED + 1 : RowWords.sharedLength(
        keySegment, rowOffset(0), rowLength(0), keySegment, rowOffset(count - 1),
        rowLength(count - 1));
    if (shared > RowWords.MAX_SHARED) {
      this.words = null;
      this.sharedRow = null;
    } else {
      this.words = new int[count];
      for (int i = 0; i < count; i++) {
        words[i] = RowWords.word(keySegment, rowOffset(i), rowLength(i), shared);
      }
      this.sharedRow = keySegment.asSlice(rowOffset(0), shared);
    }
  }

  private long rowOffset(int checkpoint) {
    return KeyValueLayout.rowOffset(entries[checkpoint * FIELDS + KEY_AT]);
  }

  private int rowLength(int checkpoint) {
    return KeyValueLayout.rowLength(keySegment, entries[checkpoint * FIELDS + KEY_AT]);
  }

  /** Collects the checkpoints of a block decoded from its first cell, in order. */
  static final class Builder {

    private static final int INITIAL_CHECKPOINTS = 16;
    private static final int INITIAL_KEY_BYTES = 1024;

    private int[] entries = new int[INITIAL_CHECKPOINTS * FIELDS];
    private byte[] keys = new byte[INITIAL_KEY_BYTES];
    private int count;
    private int keyBytes;
    private int lastStart;

    /** For a block whose first cell starts at payload offset {@code firstCell}. */
    Builder(int firstCell) {
      lastStart = firstCell;
    }

    /**
     * Notes {@code cell}, just decoded from payload offset {@code start}, whose suffix starts at
     * {@code suffixAt}; takes it as a checkpoint if it is far enough from the previous one.
     *
     * @param startsRow whether the cell before it has another row
     */
    void cell(int start, DecodedCell cell, int suffixAt, boolean startsRow) {
      int keyLength = cell.keyLength();
      int share = startsRow ? ROW_SHARE : PAYLOAD_SHARE;
      if ((long) start - lastStart < (long) share * (ENTRY_SIZE + keyLength)) {
        return;
      }
      if ((count + 1) * FIELDS > entries.length) {
        entries = Arrays.copyOf(entries, 2 * entries.length);
      }
      if (keyBytes + keyLength > keys.length) {
        keys = Arrays.copyOf(keys, Math.max(keyBytes + keyLength, 2 * keys.length));
      }
      System.arraycopy(cell.keyArray(), (int) cell.keyOffset(), keys, keyBytes, keyLength);
      int at = count * FIELDS;
      entries[at + START] = startsRow ? start | ROW_START : start;
      entries[at + KEY_AT] = keyBytes;
      entries[at + KEY_LENGTH] = keyLength;
      entries[at + VALUE_OFFSET] = (int) cell.valueOffset();
      entries[at + VALUE_LENGTH] = cell.valueLength();
      entries[at + SUFFIX_AT] = suffixAt;
      count++;
      keyBytes += keyLength;
      lastStart = start;
    }

    Checkpoints build() {
      return new Checkpoints(
          Arrays.copyOf(entries, count * FIELDS), Arrays.copyOf(keys, keyBytes));
    }
  }

  /**
   * Returns {@code index} as a delta-encoded block's index (null stays null).
   *
   * @throws IllegalArgumentException if it is another encoding's index
   */
  static Checkpoints of(SeekIndex index) {
    if (index == null || index instanceof Checkpoints) {
      return (Checkpoints) index;
    }
    throw new IllegalArgumentException("a delta-encoded block's seeker cannot use " + index);
  }

  @Override
  public int count() {
    return entries.length / FIELDS;
  }

  int start(int checkpoint) {
    return entries[checkpoint * FIELDS + START] & ~ROW_START;
  }

  /** Whether checkpoint {@code checkpoint}'s cell starts its row. */
  boolean startsRow(int checkpoint) {
    return (entries[checkpoint * FIELDS + START] & ROW_START) != 0;
  }

  /** Whether checkpoint {@code checkpoint}'s row is {@code key}'s. */
  boolean sameRow(int checkpoint, Cell key) {
    return Bytes.equals(key.segment(), key.rowOffset(), key.rowLength(), keySegment,
        rowOffset(checkpoint), rowLength(checkpoint));
  }

  int valueOffset(int checkpoint) {
    return entries[checkpoint * FIELDS + VALUE_OFFSET];
  }

  int valueLength(int checkpoint) {
    return entries[checkpoint * FIELDS + VALUE_LENGTH];
  }

  int suffixAt(int checkpoint) {
    return entries[checkpoint * FIELDS + SUFFIX_AT];
  }

  int keyLength(int checkpoint) {
    return entries[checkpoint * FIELDS + KEY_LENGTH];
  }

  /** Copies the checkpoint's key into {@code target} at {@code offset}. */
  void copyKey(int checkpoint, byte[] target, int offset) {
    System.arraycopy(
        keys,
        entries[checkpoint * FIELDS + KEY_AT],
        target,
        offset,
        entries[checkpoint * FIELDS + KEY_LENGTH]);
  }

  /** Returns the first checkpoint whose cell starts at or after {@code position}, or the count. */
  int firstAtOrAfter(int position) {
    int low = 0;
    int high = count() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (start(mid) < position) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  /**
   * Returns the last checkpoint at or after {@code from} whose cell a seek to {@code key} may stop
   * on (see {@link PlainSeeker#qualifies}), or -1 if checkpoint {@code from} is not one (or there
   * is none). Checkpoint {@code from} is tried first, so a seek to a cell close ahead costs one
   * comparison.
   */
  int lastQualifying(Cell key, boolean seekBefore, int from) {
    int count = count();
    long keyWord = words == null ? RowWords.NONE : RowWords.keyWord(key, sharedRow);
    if (from >= count || !qualifies(key, keyWord, seekBefore, from)) {
      return -1;
    }
    int found = from;
    int low = from + 1;
    int high = count - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (qualifies(key, keyWord, seekBefore, mid)) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private boolean qualifies(Cell key, long keyWord, boolean seekBefore, int checkpoint) {
    int byWords = words == null ? 0 : RowWords.compare(keyWord, words[checkpoint]);
    if (byWords != 0) {
      return byWords > 0;
    }
    int at = checkpoint * FIELDS;
    return PlainSeeker.qualifies(
        CellComparator.compareKey(key, keySegment, entries[at + KEY_AT], entries[at + KEY_LENGTH]),
        seekBefore);
  }

  @Override
  public long heapSize() {
    return OBJECT_SIZE
        + SEGMENT_SIZE
        + align(ARRAY_HEADER_SIZE + (long) Integer.BYTES * entries.length)
        + align(ARRAY_HEADER_SIZE + keys.length)
        + (words == null
            ? 0
            : SEGMENT_SIZE + align(ARRAY_HEADER_SIZE + (long) Integer.BYTES * words.length));
  }

  private static long align(long size) {
    return (size + 7) & ~7L;
  }

  @Override
  public String toString() {
    return "Checkpoints[" + count() + " entries, " + keys.length + " key bytes]";
  }
}
