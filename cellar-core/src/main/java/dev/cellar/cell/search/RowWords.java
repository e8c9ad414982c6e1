package dev.cellar.cell.search;

import dev.cellar.cell.Cell;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Row words: the {@value #BYTES} row bytes that follow a prefix shared by a sorted run of rows,
 * big-endian and padded with zero bytes past the row's end, as an int compared unsigned. Searches
 * over a block's cells or index entries keep one word per entry beside the entry's position, so a
 * binary search decides most steps on an array of words instead of reading a key elsewhere in
 * memory (a cache miss per step on data larger than the CPU's caches).
 *
 * <p>Two rows that both start with the shared prefix and whose words differ compare as their words
 * do: the first differing byte lies within the word, and a row that ends first pads with the
 * smallest byte. Equal words say nothing; the keys must then be compared. Stateless.
 */
public final class RowWords {

  /** The row bytes a word holds. */
  public static final int BYTES = Integer.BYTES;

  /** The longest shared prefix worth keeping; runs whose rows share more get no words. */
  public static final int MAX_SHARED = 256;

  /** The key word that says nothing: the key's row does not start with the shared prefix. */
  public static final long NONE = -1;

  private RowWords() {}

  /** The word of the row of {@code length} bytes at {@code row} after its first {@code shared}. */
  public static int word(MemorySegment segment, long row, int length, int shared) {
    long at = row + shared;
    int left = length - shared;
    if (left >= BYTES) {
      return segment.get(ByteLayouts.INT_BE, at);
    }
    int word = 0;
    for (int i = 0; i < BYTES; i++) {
      word <<= Byte.SIZE;
      if (i < left) {
        word |= Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, at + i));
      }
    }
    return word;
  }

  /** The length of the common prefix of two rows. */
  public static int sharedLength(
      MemorySegment first,
      long firstRow,
      int firstLength,
      MemorySegment last,
      long lastRow,
      int lastLength) {
    long mismatch =
        MemorySegment.mismatch(
            first, firstRow, firstRow + firstLength, last, lastRow, lastRow + lastLength);
    return mismatch < 0 ? firstLength : (int) mismatch;
  }

  /** A copy of the {@code shared} bytes at {@code row}, for {@link #keyWord}. */
  public static MemorySegment sharedPrefix(MemorySegment segment, long row, int shared) {
    byte[] prefix = new byte[shared];
    MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, row, prefix, 0, shared);
    return MemorySegment.ofArray(prefix);
  }

  /**
   * The word of {@code key}'s row after {@code sharedPrefix}, as an unsigned value; or {@link
   * #NONE} if the row does not start with the prefix or there is none (null).
   */
  public static long keyWord(Cell key, MemorySegment sharedPrefix) {
    if (sharedPrefix == null) {
      return NONE;
    }
    int shared = (int) sharedPrefix.byteSize();
    int rowLength = key.rowLength();
    if (rowLength < shared) {
      return NONE;
    }
    MemorySegment segment = key.segment();
    long row = key.rowOffset();
    if (MemorySegment.mismatch(segment, row, row + shared, sharedPrefix, 0, shared) >= 0) {
      return NONE;
    }
    return Integer.toUnsignedLong(word(segment, row, rowLength, shared));
  }

  /**
   * Compares a key word with an entry's word: negative or positive when the words decide (the key's
   * row sorts before or after the entry's), 0 when the keys must be compared.
   */
  public static int compare(long keyWord, int entryWord) {
    if (keyWord == NONE) {
      return 0;
    }
    return Long.compare(keyWord, Integer.toUnsignedLong(entryWord));
  }
}
