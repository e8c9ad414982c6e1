package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The {@link SeekIndex} of a PREFIX, DIFF or FAST_DIFF block: cells spread over the block from
 * which a {@link DeltaSeeker} resumes decoding, as restart points would let it if HBase's formats
 * had any. Immutable and thread-safe.
 *
 * <p>Each checkpoint is a cell after the block's first, taken once the cells since the previous
 * checkpoint (or the first cell) span at least {@value #PAYLOAD_SHARE} times the
 * checkpoint's heap bytes ({@value #ENTRY_SIZE} plus its key), and records what decoding the cell
 * left: its whole key, copied into one array of keys, where its value lies in the payload (a
 * FAST_DIFF cell repeating its predecessor's value points back at it), and where its suffix (tags,
 * mvcc) starts. Restoring a checkpoint makes it the seeker's current cell, from which the next cell
 * decodes as it would have in a walk from the block's start. Tags compressed with a dictionary
 * would need the dictionary's state too, so such blocks are not indexed.
 *
 * <p>Layout of {@link #entries}, {@value #FIELDS} ints per checkpoint, in block order:
 *
 * <pre>
 *  start        payload offset where the cell's encoded bytes start
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

  /** Heap bytes of a checkpoint besides its key. */
  static final int ENTRY_SIZE = FIELDS * Integer.BYTES;

  /** The payload bytes a checkpoint stands for, at least, per heap byte it takes. */
  static final int PAYLOAD_SHARE = 64;

  private static final long OBJECT_SIZE = 24;
  private static final long SEGMENT_SIZE = 48;
  private static final long ARRAY_HEADER_SIZE = 16;

  /** An upper bound of the heap bytes besides the checkpoints. */
  private static final long FIXED_HEAP_SIZE = 128;

  /** The most heap bytes the index of a block with a payload of {@code payloadSize} bytes takes. */
  static long maxHeapSize(int payloadSize) {
    return payloadSize / PAYLOAD_SHARE + FIXED_HEAP_SIZE;
  }

  private final int[] entries;
  private final byte[] keys;
  private final MemorySegment keySegment;

  private Checkpoints(int[] entries, byte[] keys) {
    this.entries = entries;
    this.keys = keys;
    this.keySegment = MemorySegment.ofArray(keys);
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
     */
    void cell(int start, DecodedCell cell, int suffixAt) {
      int keyLength = cell.keyLength();
      if ((long) start - lastStart < (long) PAYLOAD_SHARE * (ENTRY_SIZE + keyLength)) {
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
      entries[at + START] = start;
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
    return entries[checkpoint * FIELDS + START];
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
    if (from >= count || !qualifies(key, seekBefore, from)) {
      return -1;
    }
    int found = from;
    int low = from + 1;
    int high = count - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (qualifies(key, seekBefore, mid)) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private boolean qualifies(Cell key, boolean seekBefore, int checkpoint) {
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
        + align(ARRAY_HEADER_SIZE + keys.length);
  }

  private static long align(long size) {
    return (size + 7) & ~7L;
  }

  @Override
  public String toString() {
    return "Checkpoints[" + count() + " entries, " + keys.length + " key bytes]";
  }
}
