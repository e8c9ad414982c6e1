package dev.cellar.hfile;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.memory.Buf;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A parsed root-format index (the data index root, the meta index), held on the heap for the life
 * of the reader: the entries' keys in one array, offsets and sizes in parallel primitive arrays, so
 * a search allocates nothing. Layout in {@link IndexEntries}. Immutable and thread-safe.
 */
final class RootIndex {

  private final long[] offsets;
  private final int[] sizes;
  private final int[] keyOffsets;
  private final int[] keyLengths;
  private final byte[] keys;
  private final MemorySegment keySegment;

  /** Where the entries end in the payload (mid-key metadata may follow). */
  private final int entriesEnd;

  private RootIndex(
      long[] offsets,
      int[] sizes,
      int[] keyOffsets,
      int[] keyLengths,
      byte[] keys,
      int entriesEnd) {
    this.offsets = offsets;
    this.sizes = sizes;
    this.keyOffsets = keyOffsets;
    this.keyLengths = keyLengths;
    this.keys = keys;
    this.keySegment = MemorySegment.ofArray(keys);
    this.entriesEnd = entriesEnd;
  }

  /**
   * Parses {@code count} root-format entries from the start of {@code payload}.
   *
   * @throws CorruptHFileException if an entry runs past the payload or has an impossible length
   */
  static RootIndex parse(Buf payload, int count, String file, long blockOffset, String what)
      throws CorruptHFileException {
    if (count < 0) {
      throw new CorruptHFileException(file, blockOffset, what + " entry count", ">= 0", count);
    }
    byte[] bytes = payload.getBytes(0, payload.capacity());
    long[] offsets = new long[count];
    int[] sizes = new int[count];
    int[] keyOffsets = new int[count];
    int[] keyLengths = new int[count];
    int at = 0;
    for (int i = 0; i < count; i++) {
      if (bytes.length - at < IndexEntries.ENTRY_OVERHEAD + 1) {
        throw new CorruptHFileException(
            file,
            blockOffset,
            what + " entry " + i + " of " + count,
            "at least " + (IndexEntries.ENTRY_OVERHEAD + 1) + " bytes",
            (bytes.length - at) + " bytes left");
      }
      offsets[i] = Bytes.toLong(bytes, at);
      sizes[i] = Bytes.toInt(bytes, at + Long.BYTES);
      at += IndexEntries.ENTRY_OVERHEAD;
      int lengthSize = Bytes.vlongSizeFromFirstByte(bytes[at]);
      if (at + lengthSize > bytes.length) {
        throw new CorruptHFileException(
            file,
            blockOffset,
            what + " entry " + i + " key length",
            lengthSize + " bytes",
            (bytes.length - at) + " bytes left");
      }
      long keyLength = Bytes.readVLong(bytes, at);
      at += lengthSize;
      if (keyLength < 0 || keyLength > bytes.length - at || offsets[i] < 0 || sizes[i] < 0) {
        throw new CorruptHFileException(
            file,
            blockOffset,
            what + " entry " + i,
            "a key within the block and non-negative offset and size",
            "key length " + keyLength + ", offset " + offsets[i] + ", size " + sizes[i]);
      }
      keyOffsets[i] = at;
      keyLengths[i] = (int) keyLength;
      at += (int) keyLength;
    }
    return new RootIndex(offsets, sizes, keyOffsets, keyLengths, bytes, at);
  }

  int count() {
    return offsets.length;
  }

  /**
   * The bytes the index holds on the heap: the block's payload (keys and all) plus the offset,
   * size, key offset and key length of each entry (array headers not counted).
   */
  long heapBytes() {
    return keys.length + (long) offsets.length * (Long.BYTES + 3 * Integer.BYTES);
  }

  long offset(int i) {
    return offsets[i];
  }

  int onDiskSize(int i) {
    return sizes[i];
  }

  byte[] key(int i) {
    return Arrays.copyOfRange(keys, keyOffsets[i], keyOffsets[i] + keyLengths[i]);
  }

  /** The memory holding every entry's key, read in place with {@link #keyOffset}. */
  MemorySegment keySegment() {
    return keySegment;
  }

  long keyOffset(int i) {
    return keyOffsets[i];
  }

  int keyLength(int i) {
    return keyLengths[i];
  }

  /** Bytes of the payload after the entries (the data root's mid-key metadata). */
  int trailingBytes() {
    return keys.length - entriesEnd;
  }

  /** The payload bytes after the entries, from {@code offset} on. */
  long trailingLong(int offset) {
    return Bytes.toLong(keys, entriesEnd + offset);
  }

  int trailingInt(int offset) {
    return Bytes.toInt(keys, entriesEnd + offset);
  }

  /**
   * The entry whose key is the largest one not after {@code key} (cell keys compared ignoring the
   * sequence id), or -1 if {@code key} sorts before every entry.
   */
  int search(Cell key) {
    int low = 0;
    int high = offsets.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int diff = CellComparator.compareKey(key, keySegment, keyOffsets[mid], keyLengths[mid]);
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

  /** The entry whose key equals {@code name} byte for byte, or -1. */
  int find(byte[] name) {
    for (int i = 0; i < offsets.length; i++) {
      if (Bytes.equals(keys, keyOffsets[i], keyLengths[i], name, 0, name.length)) {
        return i;
      }
    }
    return -1;
  }
}
