package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.search.RowWords;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The {@link SeekIndex} of a PREFIX, DIFF or FAST_DIFF block: cells spread over the block from
 * which a {@link DeltaSeeker} resumes decoding, as restart points would let it if HBase's formats
 * had any. Immutable and thread-safe.
 *
 * <p>Each checkpoint is a cell after the block's first, taken once the cells since the previous
 * checkpoint (or the first cell) span at least {@value #ROW_SHARE} times the checkpoint's heap
 * bytes ({@value #ENTRY_SIZE} plus its key) if the cell starts its row, or {@value #PAYLOAD_SHARE}
 * times if not (a long row gets checkpoints inside it too), and records what decoding the cell
 * left: its whole key, copied into one array of keys, where its value lies in the payload (a
 * FAST_DIFF cell repeating its predecessor's value points back at it), and where its suffix (tags,
 * mvcc) starts. Restoring a checkpoint makes it the seeker's current cell, from which the next cell
 * decodes as it would have in a walk from the block's start. Tags compressed with a dictionary
 * would need the dictionary's state too, so such blocks are not indexed.
 *
 * <p><b>Row starts.</b> A checkpoint at a row's first cell is marked, so that a Get, which seeks to
 * the first key of its row, restores its row's first cell straight from the index ({@link
 * DeltaSeeker#seekToRowStart}) instead of restoring the checkpoint before it and decoding the cells
 * of the rows between (with wide rows, a whole row of cells per Get).
 *
 * <p><b>Layout.</b> Everything lies in one {@code byte[]}, taken from and handed back to {@link
 * IndexArrays} (a cache holding a third of what is read builds and drops indexes all the time), its
 * ints in the machine's byte order:
 *
 * <pre>
 *   [words]    each checkpoint's {@link RowWords row word} after the rows' shared prefix, an int
 *              each (absent when the rows share more than {@link RowWords#MAX_SHARED} bytes)
 *   [entries]  {@value #FIELDS} ints per checkpoint, in block order:
 *                start        payload offset where the cell's encoded bytes start; the top bit
 *                             set when the cell starts its row
 *                keyAt        the byte offset of its key in the array
 *                keyLength    the key's length (the KeyValue key: row length to type)
 *                valueOffset  payload offset of its value
 *                valueLength  its value's length
 *                suffixAt     payload offset of its tags length (or mvcc, or the next cell)
 *   [keys]     the checkpoints' keys, back to back
 * </pre>
 *
 * A binary search reads the words (a line or two) and compares a key in place only where words tie.
 * The keys are compared as a byte array's memory, as the Get's key and every heap block are: a key
 * comparison that also met a {@code long[]}'s memory (as this index's keys once lay) reads every
 * segment through a type check the JIT cannot remove, and every Get's comparisons, the file index's
 * too, were a tenth slower for it.
 */
final class Checkpoints implements SeekIndex {

  private static final int START = 0;
  private static final int KEY_AT = 1;
  private static final int KEY_LENGTH = 2;
  private static final int VALUE_OFFSET = 3;
  private static final int VALUE_LENGTH = 4;
  private static final int SUFFIX_AT = 5;
  private static final int FIELDS = 6;
  private static final int ENTRY_BYTES = FIELDS * Integer.BYTES;
  private static final int ROW_START = 1 << 31;
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

  /** Heap bytes of a checkpoint besides its key: its fields and its row word. */
  static final int ENTRY_SIZE = FIELDS * Integer.BYTES + RowWords.BYTES;

  /** The payload bytes a checkpoint inside a row stands for, at least, per heap byte it takes. */
  static final int PAYLOAD_SHARE = 64;

  /** The payload bytes a checkpoint at a row's first cell stands for, at least, per heap byte. */
  static final int ROW_SHARE = 8;

  private static final long OBJECT_SIZE = 48;
  private static final long SEGMENT_SIZE = 48;
  private static final long ARRAY_HEADER_SIZE = 16;

  /**
   * An upper bound of the heap bytes besides the checkpoints: the object, two segment views, the
   * array's header and its class's rounding ({@link IndexArrays}).
   */
  private static final long FIXED_HEAP_SIZE =
      OBJECT_SIZE + 2 * SEGMENT_SIZE + ARRAY_HEADER_SIZE + IndexArrays.CLASS_BYTES;

  /** The most heap bytes the index of a block with a payload of {@code payloadSize} bytes takes. */
  static long maxHeapSize(int payloadSize) {
    return payloadSize / ROW_SHARE + FIXED_HEAP_SIZE;
  }

  private final byte[] index;
  private final int count;

  /** The byte offset of the entries in the array. */
  private final int entriesStart;

  /** The whole array as bytes, for the keys. */
  private final MemorySegment keySegment;

  /** The rows' shared prefix, a view of the first checkpoint's row; null without words. */
  private final MemorySegment sharedRow;

  /** The payload offset of the block's first cell. */
  private final int firstCellAt;

  /** What the seeker needs from the block's start to decode later cells ({@link #blockFacts}). */
  private final long blockFacts;

  private Checkpoints(
      byte[] index,
      int count,
      int entriesStart,
      MemorySegment keySegment,
      MemorySegment sharedRow,
      int firstCellAt,
      long blockFacts) {
    this.index = index;
    this.count = count;
    this.entriesStart = entriesStart;
    this.keySegment = keySegment;
    this.sharedRow = sharedRow;
    this.firstCellAt = firstCellAt;
    this.blockFacts = blockFacts;
  }

  /**
   * Collects the checkpoints of a block decoded from its first cell, in order. Reused block after
   * block by one seeker (its scratch arrays grow to the largest block and stay), so building an
   * index allocates only the index's objects, its array coming from {@link IndexArrays}.
   */
  static final class Builder {

    private static final int INITIAL_CHECKPOINTS = 16;
    private static final int INITIAL_KEY_BYTES = 1024;

    private int[] entries = new int[INITIAL_CHECKPOINTS * FIELDS];
    private byte[] keys = new byte[INITIAL_KEY_BYTES];
    private int count;
    private int keyBytes;
    private int lastStart;
    private int firstCellAt;
    private int rowShare;

    /**
     * Starts over for a block whose first cell starts at payload offset {@code firstCell}, with a
     * checkpoint at a row's first cell every {@code rowShare} times its heap bytes at most ({@link
     * #ROW_SHARE} for a cached block, {@link #PAYLOAD_SHARE} for a sparse index).
     */
    Builder start(int firstCell, int rowShare) {
      count = 0;
      keyBytes = 0;
      lastStart = firstCell;
      firstCellAt = firstCell;
      this.rowShare = rowShare;
      return this;
    }

    /**
     * Notes {@code cell}, just decoded from payload offset {@code start}, whose suffix starts at
     * {@code suffixAt}; takes it as a checkpoint if it is far enough from the previous one.
     *
     * @param startsRow whether the cell before it has another row
     */
    void cell(int start, DecodedCell cell, int suffixAt, boolean startsRow) {
      int keyLength = cell.keyLength();
      int share = startsRow ? rowShare : PAYLOAD_SHARE;
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

    /**
     * The index of the checkpoints noted, in an array from {@link IndexArrays}, keeping the
     * seeker's {@code blockFacts} about the block's start.
     */
    Checkpoints build(long blockFacts) {
      MemorySegment scratch = MemorySegment.ofArray(keys);
      int shared =
          count == 0
              ? RowWords.MAX_SHARED + 1
              : RowWords.sharedLength(
                  scratch,
                  rowOffset(0),
                  rowLength(scratch, 0),
                  scratch,
                  rowOffset(count - 1),
                  rowLength(scratch, count - 1));
      boolean withWords = shared <= RowWords.MAX_SHARED;
      int entriesStart = withWords ? count * RowWords.BYTES : 0;
      int keysStart = entriesStart + count * ENTRY_BYTES;
      byte[] index = IndexArrays.takeBytes(keysStart + keyBytes);
      for (int i = 0; i < count; i++) {
        int at = i * FIELDS;
        int entry = entriesStart + i * ENTRY_BYTES;
        for (int field = 0; field < FIELDS; field++) {
          int value = field == KEY_AT ? keysStart + entries[at + KEY_AT] : entries[at + field];
          INTS.set(index, entry + field * Integer.BYTES, value);
        }
        if (withWords) {
          INTS.set(
              index,
              i * RowWords.BYTES,
              RowWords.word(scratch, rowOffset(i), rowLength(scratch, i), shared));
        }
      }
      System.arraycopy(keys, 0, index, keysStart, keyBytes);
      MemorySegment segment = MemorySegment.ofArray(index);
      MemorySegment sharedRow =
          withWords
              ? segment.asSlice(keysStart + KeyValueLayout.rowOffset(entries[KEY_AT]), shared)
              : null;
      return new Checkpoints(
          index, count, entriesStart, segment, sharedRow, firstCellAt, blockFacts);
    }

    private long rowOffset(int checkpoint) {
      return KeyValueLayout.rowOffset(entries[checkpoint * FIELDS + KEY_AT]);
    }

    private int rowLength(MemorySegment scratch, int checkpoint) {
      return KeyValueLayout.rowLength(scratch, entries[checkpoint * FIELDS + KEY_AT]);
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
    return count;
  }

  /** The payload offset of the block's first cell, after the header and any preamble. */
  int firstCellAt() {
    return firstCellAt;
  }

  /**
   * What the seeker that built this index read from the block's start and needs to decode any later
   * cell (the family's place, for DIFF and FAST_DIFF), so that a seeker handed a block with its
   * index need not read the block's first bytes.
   */
  long blockFacts() {
    return blockFacts;
  }

  private int field(int checkpoint, int field) {
    return (int) INTS.get(index, entriesStart + checkpoint * ENTRY_BYTES + field * Integer.BYTES);
  }

  private int word(int checkpoint) {
    return (int) INTS.get(index, checkpoint * RowWords.BYTES);
  }

  int start(int checkpoint) {
    return field(checkpoint, START) & ~ROW_START;
  }

  /** Whether checkpoint {@code checkpoint}'s cell starts its row. */
  boolean startsRow(int checkpoint) {
    return (field(checkpoint, START) & ROW_START) != 0;
  }

  int valueOffset(int checkpoint) {
    return field(checkpoint, VALUE_OFFSET);
  }

  int valueLength(int checkpoint) {
    return field(checkpoint, VALUE_LENGTH);
  }

  int suffixAt(int checkpoint) {
    return field(checkpoint, SUFFIX_AT);
  }

  int keyLength(int checkpoint) {
    return field(checkpoint, KEY_LENGTH);
  }

  /** Copies the checkpoint's key into {@code target} at {@code offset}. */
  void copyKey(int checkpoint, byte[] target, int offset) {
    System.arraycopy(index, field(checkpoint, KEY_AT), target, offset, keyLength(checkpoint));
  }

  private long rowOffset(int checkpoint) {
    return KeyValueLayout.rowOffset(field(checkpoint, KEY_AT));
  }

  /** Whether checkpoint {@code checkpoint}'s row is {@code key}'s. */
  boolean sameRow(int checkpoint, Cell key) {
    return Bytes.equals(
        key.segment(),
        key.rowOffset(),
        key.rowLength(),
        keySegment,
        rowOffset(checkpoint),
        KeyValueLayout.rowLength(keySegment, field(checkpoint, KEY_AT)));
  }

  /** Returns the first checkpoint whose cell starts at or after {@code position}, or the count. */
  int firstAtOrAfter(int position) {
    int low = 0;
    int high = count - 1;
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
    long keyWord = sharedRow == null ? RowWords.NONE : RowWords.keyWord(key, sharedRow);
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
    int byWords = sharedRow == null ? 0 : RowWords.compare(keyWord, word(checkpoint));
    if (byWords != 0) {
      return byWords > 0;
    }
    return PlainSeeker.qualifies(
        CellComparator.compareKey(
            key, keySegment, field(checkpoint, KEY_AT), keyLength(checkpoint)),
        seekBefore);
  }

  @Override
  public long heapSize() {
    return OBJECT_SIZE
        + SEGMENT_SIZE
        + (sharedRow == null ? 0 : SEGMENT_SIZE)
        + ARRAY_HEADER_SIZE
        + index.length;
  }

  /** Hands the array to the next index built; this index is not read again. */
  @Override
  public void recycle() {
    IndexArrays.giveBytes(index);
  }

  @Override
  public String toString() {
    return "Checkpoints[" + count + " entries, " + index.length + " bytes]";
  }
}
