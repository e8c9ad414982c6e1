package dev.cellar.hfile;

import dev.cellar.cell.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A chunk of block index entries (key, block offset, block on-disk size) being built by the writer,
 * with the two serialized forms HFile uses.
 *
 * <pre>
 * root format (ROOT_INDEX blocks, bloom chunk indexes):
 *   entry*        := blockOffset:int64 onDiskSize:int32 keyLength:HVINT key
 * non-root format (LEAF_INDEX and INTERMEDIATE_INDEX blocks):
 *   numEntries:int32
 *   secondary:int32[numEntries + 1]  offset of entry i from the end of this array;
 *                                    the last value is the size of the entry area
 *   entry*        := blockOffset:int64 onDiskSize:int32 key (length from the secondary array)
 * </pre>
 *
 * Not thread-safe.
 */
final class IndexEntries {

  /** Bytes of an entry's offset and size fields. */
  static final int ENTRY_OVERHEAD = Long.BYTES + Integer.BYTES;

  private final List<byte[]> keys = new ArrayList<>();
  private long[] offsets = new long[16];
  private int[] sizes = new int[16];

  /** For the leaf-level root chunk: data blocks covered by this entry and every earlier one. */
  private long[] cumulativeBlocks = new long[16];

  private long rootSize;
  private long keyBytes;

  int count() {
    return keys.size();
  }

  boolean isEmpty() {
    return keys.isEmpty();
  }

  void add(byte[] key, long offset, int onDiskSize) {
    add(key, offset, onDiskSize, -1);
  }

  void add(byte[] key, long offset, int onDiskSize, long cumulativeDataBlocks) {
    int i = keys.size();
    if (i == offsets.length) {
      offsets = Arrays.copyOf(offsets, i * 2);
      sizes = Arrays.copyOf(sizes, i * 2);
      cumulativeBlocks = Arrays.copyOf(cumulativeBlocks, i * 2);
    }
    keys.add(key);
    offsets[i] = offset;
    sizes[i] = onDiskSize;
    cumulativeBlocks[i] = cumulativeDataBlocks;
    rootSize += ENTRY_OVERHEAD + Bytes.vlongSize(key.length) + key.length;
    keyBytes += key.length;
  }

  byte[] key(int i) {
    return keys.get(i);
  }

  long offset(int i) {
    return offsets[i];
  }

  int onDiskSize(int i) {
    return sizes[i];
  }

  long cumulativeDataBlocks(int i) {
    return cumulativeBlocks[i];
  }

  /** Serialized size in root format. */
  long rootSize() {
    return rootSize;
  }

  /** Serialized size in non-root format. */
  long nonRootSize() {
    return Integer.BYTES
        + (long) Integer.BYTES * (count() + 1)
        + (long) ENTRY_OVERHEAD * count()
        + keyBytes;
  }

  void writeRoot(PayloadBuilder out) {
    for (int i = 0; i < count(); i++) {
      out.putLong(offsets[i]).putInt(sizes[i]).putVLong(keys.get(i).length).putBytes(keys.get(i));
    }
  }

  byte[] toNonRoot() {
    PayloadBuilder out = new PayloadBuilder((int) nonRootSize());
    out.putInt(count());
    int position = 0;
    for (int i = 0; i < count(); i++) {
      out.putInt(position);
      position += ENTRY_OVERHEAD + keys.get(i).length;
    }
    out.putInt(position);
    for (int i = 0; i < count(); i++) {
      out.putLong(offsets[i]).putInt(sizes[i]).putBytes(keys.get(i));
    }
    return out.toByteArray();
  }

  void clear() {
    keys.clear();
    rootSize = 0;
    keyBytes = 0;
  }
}
