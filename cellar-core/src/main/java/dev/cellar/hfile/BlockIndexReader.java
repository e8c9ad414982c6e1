package dev.cellar.hfile;

import static dev.cellar.memory.ByteLayouts.INT_BE;
import static dev.cellar.memory.ByteLayouts.LONG_BE;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.search.RowWords;
import dev.cellar.memory.Buf;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Finds the data block that may hold a key by walking the data block index: a binary search of the
 * in-memory root, then of each LEAF_INDEX / INTERMEDIATE_INDEX block below it, in place, read
 * through the reader's {@link BlockLoader} (index blocks are always cached). Layouts in {@link
 * IndexEntries} and {@link BlockIndexWriter}.
 *
 * <p>Thread-safe: the root is immutable and every walk uses only its own locals and the caller's
 * {@link BlockPointer}.
 */
final class BlockIndexReader {

  /** Bytes of the mid-key metadata after a multi-level root. */
  static final int MID_KEY_METADATA_SIZE = Long.BYTES + 2 * Integer.BYTES;

  private final RootIndex root;
  private final int levels;
  private final String file;

  BlockIndexReader(RootIndex root, int levels, String file) {
    this.root = root;
    this.levels = levels;
    this.file = file;
  }

  RootIndex root() {
    return root;
  }

  int levels() {
    return levels;
  }

  /**
   * Where a data block is, how big it is on disk, and the index key of the data block after it
   * (HBase's {@code nextIndexedKey}): every key before that one lies in this block or an earlier
   * one. Reused across lookups by one cursor; the key is copied into a buffer that only grows, so a
   * lookup allocates nothing once the buffer fits the index's keys. Not thread-safe.
   */
  static final class BlockPointer {

    private static final int INITIAL_KEY_CAPACITY = 64;

    /** The block's file offset, or -1 while no lookup has completed. */
    long offset = -1;

    int onDiskSize;

    /** True if no index entry follows the block's: it is the file's last data block. */
    private boolean lastBlock;

    private byte[] nextKey = new byte[INITIAL_KEY_CAPACITY];
    private MemorySegment nextKeySegment = MemorySegment.ofArray(nextKey);
    private int nextKeyLength;

    /**
     * Returns whether {@code key} sorts before the next block's index key, so that a seek to it
     * lands in this block (or before it), never in a later one.
     */
    boolean precedesNextBlock(Cell key) {
      return lastBlock || CellComparator.compareKey(key, nextKeySegment, 0, nextKeyLength) < 0;
    }

    private void reset() {
      offset = -1;
      lastBlock = true;
    }

    private void setNextKey(MemorySegment source, long at, int length) {
      if (length > nextKey.length) {
        nextKey = new byte[Math.max(length, 2 * nextKey.length)];
        nextKeySegment = MemorySegment.ofArray(nextKey);
      }
      MemorySegment.copy(source, ValueLayout.JAVA_BYTE, at, nextKey, 0, length);
      nextKeyLength = length;
      lastBlock = false;
    }
  }

  /**
   * Points {@code out} at the data block whose range covers {@code key}, with the index key of the
   * block after it: the next entry at the deepest level that has one (a leaf's last entry takes its
   * parent's next entry, the first key under the next subtree), as HBase's {@code
   * loadDataBlockWithScanInfo} does.
   *
   * @return false if {@code key} sorts before the first key of the file; {@code out} then points
   *     nowhere (offset -1), as it does when the walk fails
   */
  boolean locate(Cell key, BlockLoader loader, BlockPointer out) throws IOException {
    out.reset();
    int entry;
    try {
      entry = root.search(key);
    } catch (IllegalArgumentException e) {
      throw new CorruptHFileException(file, -1, "malformed key in the root data index", e);
    }
    if (entry < 0) {
      return false;
    }
    if (entry + 1 < root.count()) {
      out.setNextKey(root.keySegment(), root.keyOffset(entry + 1), root.keyLength(entry + 1));
    }
    long offset = root.offset(entry);
    int size = root.onDiskSize(entry);
    for (int level = 1; level < levels; level++) {
      BlockType expected =
          level == levels - 1 ? BlockType.LEAF_INDEX : BlockType.INTERMEDIATE_INDEX;
      HFileBlock block = loader.loadBlock(offset, size, expected, true);
      try {
        NonRootEntries entries = NonRootEntries.of(block, file);
        int child;
        try {
          child = entries.search(key);
        } catch (IllegalArgumentException e) {
          throw new CorruptHFileException(
              file, block.offset(), "malformed key in " + expected + " block", e);
        }
        if (child < 0) {
          throw new CorruptHFileException(
              file,
              block.offset(),
              expected
                  + " block: the key sorts before its first entry although its parent points here",
              "a first entry not after the parent key",
              "a later first entry");
        }
        if (child + 1 < entries.count()) {
          entries.copyKeyTo(child + 1, out);
        }
        offset = entries.offset(child);
        size = entries.onDiskSize(child);
      } finally {
        block.release();
      }
    }
    out.onDiskSize = size;
    out.offset = offset;
    return true;
  }

  /**
   * The file's mid-key (the split point): from the mid-key metadata of a multi-level index, or the
   * middle root entry of a single-level one; null for an empty index.
   */
  byte[] midKey(BlockLoader loader) throws IOException {
    if (root.count() == 0) {
      return null;
    }
    if (levels == 1 || root.trailingBytes() < MID_KEY_METADATA_SIZE) {
      return root.key(root.count() / 2);
    }
    long leafOffset = root.trailingLong(0);
    int leafSize = root.trailingInt(Long.BYTES);
    int entry = root.trailingInt(Long.BYTES + Integer.BYTES);
    HFileBlock leaf = loader.loadBlock(leafOffset, leafSize, BlockType.LEAF_INDEX, true);
    try {
      NonRootEntries entries = NonRootEntries.of(leaf, file);
      if (entry < 0 || entry >= entries.count()) {
        throw new CorruptHFileException(
            file, leaf.offset(), "mid-key entry", "0.." + (entries.count() - 1), entry);
      }
      return entries.key(entry);
    } finally {
      leaf.release();
    }
  }

  /** A validated view of a non-root index block's entries, searched in place. */
  static final class NonRootEntries {

    /**
     * The most heap bytes the entries of an index block with a payload of {@code payloadSize} bytes
     * take besides the block: an entry takes at least {@value #MIN_ENTRY_BYTES} payload bytes and a
     * word of {@link RowWords#BYTES}, plus the shared row prefix and a few objects.
     */
    static long maxHeapSize(int payloadSize) {
      return (long) payloadSize / MIN_ENTRY_BYTES * RowWords.BYTES + RowWords.MAX_SHARED + 160;
    }

    /** A secondary offset, the offset and size, and the shortest key. */
    private static final int MIN_ENTRY_BYTES =
        Integer.BYTES + IndexEntries.ENTRY_OVERHEAD + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;

    private final MemorySegment segment;
    private final int count;
    private final int entriesStart;

    /** Each entry's {@link RowWords row word}, or null when words say nothing for this block. */
    private final int[] words;

    private final MemorySegment sharedRow;

    private NonRootEntries(MemorySegment segment, int count, int entriesStart) {
      this.segment = segment;
      this.count = count;
      this.entriesStart = entriesStart;
      int[] rowWords = null;
      MemorySegment prefix = null;
      if (count > 0 && keysWellFormed()) {
        long firstRow = rowOffset(0);
        int shared =
            RowWords.sharedLength(
                segment,
                firstRow,
                rowLength(0),
                segment,
                rowOffset(count - 1),
                rowLength(count - 1));
        if (shared <= RowWords.MAX_SHARED) {
          rowWords = new int[count];
          for (int i = 0; i < count; i++) {
            rowWords[i] = RowWords.word(segment, rowOffset(i), rowLength(i), shared);
          }
          prefix = RowWords.sharedPrefix(segment, firstRow, shared);
        }
      }
      this.words = rowWords;
      this.sharedRow = prefix;
    }

    /**
     * Whether every entry's key holds its row; a block where one does not gets no words, and a
     * search reports the malformed key when it compares it.
     */
    private boolean keysWellFormed() {
      for (int i = 0; i < count; i++) {
        int keyLength = keyLength(i);
        if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE) {
          return false;
        }
        int rowLength = rowLength(i);
        if (rowLength < 0 || rowLength > keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE) {
          return false;
        }
      }
      return true;
    }

    private long keyOffset(int i) {
      return entry(i) + IndexEntries.ENTRY_OVERHEAD;
    }

    private int rowLength(int i) {
      return KeyValueLayout.rowLength(segment, keyOffset(i));
    }

    private long rowOffset(int i) {
      return KeyValueLayout.rowOffset(keyOffset(i));
    }

    /**
     * The entries of a non-root index block, validated once per block object: a cached block is the
     * same object on every hit, so the walk of its secondary offsets is not repeated per seek.
     */
    static NonRootEntries of(HFileBlock block, String file) throws CorruptHFileException {
      NonRootEntries entries = block.indexEntries();
      if (entries == null) {
        entries = of(block.payload(), file, block.offset());
        block.indexEntries(entries);
      }
      return entries;
    }

    static NonRootEntries of(Buf payload, String file, long blockOffset)
        throws CorruptHFileException {
      int capacity = payload.capacity();
      if (capacity < Integer.BYTES) {
        throw new CorruptHFileException(
            file, blockOffset, "non-root index block size", ">= 4 bytes", capacity);
      }
      int count = payload.getInt(0);
      long entriesStart = Integer.BYTES + (long) Integer.BYTES * (count + 1L);
      if (count < 0 || entriesStart > capacity) {
        throw new CorruptHFileException(
            file,
            blockOffset,
            "non-root index entry count",
            "0.." + (capacity / Integer.BYTES - 2),
            count);
      }
      int previous = 0;
      for (int i = 0; i <= count; i++) {
        int relative = payload.getInt(Integer.BYTES * (i + 1));
        int minimum = i == 0 ? 0 : previous + IndexEntries.ENTRY_OVERHEAD;
        if (relative < minimum || (i == 0 && relative != 0) || entriesStart + relative > capacity) {
          throw new CorruptHFileException(
              file,
              blockOffset,
              "non-root index secondary entry " + i,
              "an offset of a whole entry, " + minimum + ".." + (capacity - entriesStart),
              relative);
        }
        previous = relative;
      }
      MemorySegment segment =
          payload.isSingleSegment()
              ? payload.segment()
              : MemorySegment.ofArray(payload.getBytes(0, capacity));
      return new NonRootEntries(segment, count, (int) entriesStart);
    }

    int count() {
      return count;
    }

    private int relative(int i) {
      return segment.get(INT_BE, Integer.BYTES * (i + 1L));
    }

    private long entry(int i) {
      return entriesStart + relative(i);
    }

    long offset(int i) {
      return segment.get(LONG_BE, entry(i));
    }

    int onDiskSize(int i) {
      return segment.get(INT_BE, entry(i) + Long.BYTES);
    }

    private int keyLength(int i) {
      return relative(i + 1) - relative(i) - IndexEntries.ENTRY_OVERHEAD;
    }

    byte[] key(int i) {
      long from = entry(i) + IndexEntries.ENTRY_OVERHEAD;
      return segment.asSlice(from, keyLength(i)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Copies entry {@code i}'s key into {@code pointer} as the next block's key. */
    void copyKeyTo(int i, BlockPointer pointer) {
      pointer.setNextKey(segment, entry(i) + IndexEntries.ENTRY_OVERHEAD, keyLength(i));
    }

    /** The largest entry whose key is not after {@code key}, or -1. */
    int search(Cell key) {
      long keyWord = RowWords.keyWord(key, sharedRow);
      int low = 0;
      int high = count - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        int diff = words == null ? 0 : RowWords.compare(keyWord, words[mid]);
        if (diff == 0) {
          diff = CellComparator.compareKey(key, segment, keyOffset(mid), keyLength(mid));
        }
        if (diff < 0) {
          high = mid - 1;
        } else if (diff > 0) {
          low = mid + 1;
        } else {
          return mid;
        }
      }
      return high;
    }
  }
}
