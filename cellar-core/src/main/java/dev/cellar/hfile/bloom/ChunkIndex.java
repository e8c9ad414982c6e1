package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bloom's chunk index: for each chunk, in key order, the offset and on-disk size of its {@code
 * BLOOM_CHUNK} block and its first key. Immutable and thread-safe once built.
 *
 * <p>Stored in HBase's root index format (spec 5.1), one entry per chunk with no count (the meta
 * fields before it hold the count) and no mid-key metadata:
 *
 * <pre>
 *   +-------------+----------------+-----------------+-----------+
 *   | blockOffset | blockOnDiskSize| keyLength       | key       |
 *   | int64       | int32          | HVINT (Hadoop)  | keyLength |
 *   +-------------+----------------+-----------------+-----------+
 * </pre>
 *
 * <p>A lookup finds the chunk with the largest first key not after the key, as HBase's root index
 * search does; a key before every first key is in no chunk.
 */
final class ChunkIndex {

  /** The bytes of an entry besides its key and key length: offset and on-disk size. */
  static final int ENTRY_FIXED_SIZE = Long.BYTES + Integer.BYTES;

  /** The smallest entry: fixed part, one-byte key length, empty key. */
  static final int MIN_ENTRY_SIZE = ENTRY_FIXED_SIZE + 1;

  private final KeyOrder order;
  private final long[] offsets;
  private final int[] onDiskSizes;
  private final MemorySegment[] firstKeys;

  private ChunkIndex(KeyOrder order, long[] offsets, int[] onDiskSizes, MemorySegment[] firstKeys) {
    this.order = order;
    this.offsets = offsets;
    this.onDiskSizes = onDiskSizes;
    this.firstKeys = firstKeys;
  }

  /**
   * Reads {@code count} entries, checking that offsets are non-negative and ascending, sizes
   * positive, keys well-formed for {@code order} and ascending.
   *
   * @throws CorruptBloomException naming the entry and field that fails
   */
  static ChunkIndex read(PayloadCursor cursor, int count, KeyOrder order) {
    long[] offsets = new long[count];
    int[] onDiskSizes = new int[count];
    MemorySegment[] firstKeys = new MemorySegment[count];
    for (int i = 0; i < count; i++) {
      String entry = "bloom index entry " + i + " ";
      int at = cursor.position();
      long offset = cursor.readLong(entry + "blockOffset");
      long minOffset = i == 0 ? 0 : offsets[i - 1] + 1;
      if (offset < minOffset) {
        throw new CorruptBloomException(
            entry + "blockOffset", at, "an offset >= " + minOffset, Long.toString(offset));
      }
      at = cursor.position();
      int onDiskSize = cursor.readInt(entry + "blockOnDiskSize");
      if (onDiskSize < 1) {
        throw new CorruptBloomException(
            entry + "blockOnDiskSize", at, "a size >= 1", Integer.toString(onDiskSize));
      }
      at = cursor.position();
      long keyLength = cursor.readVLong(entry + "keyLength");
      if (keyLength < 0 || keyLength > cursor.remaining()) {
        throw new CorruptBloomException(
            entry + "keyLength",
            at,
            "0.." + cursor.remaining() + " (the bytes left)",
            Long.toString(keyLength));
      }
      at = cursor.position();
      MemorySegment key = MemorySegment.ofArray(cursor.readBytes(entry + "key", (int) keyLength));
      String problem = order.problemWith(key);
      if (problem != null) {
        throw new CorruptBloomException(entry + "key", at, "a well-formed key", problem);
      }
      if (i > 0 && order.compare(firstKeys[i - 1], key) >= 0) {
        throw new CorruptBloomException(
            entry + "key",
            at,
            "a key after entry " + (i - 1) + "'s",
            Bytes.toStringBinary(key, 0, (int) keyLength));
      }
      offsets[i] = offset;
      onDiskSizes[i] = onDiskSize;
      firstKeys[i] = key;
    }
    return new ChunkIndex(order, offsets, onDiskSizes, firstKeys);
  }

  int count() {
    return offsets.length;
  }

  KeyOrder order() {
    return order;
  }

  long offset(int chunk) {
    return offsets[chunk];
  }

  int onDiskSize(int chunk) {
    return onDiskSizes[chunk];
  }

  /**
   * Returns the chunk whose key range holds {@code key}: the last chunk whose first key is not
   * after it, or -1 if the key sorts before every chunk.
   */
  int find(MemorySegment key, long offset, int length) {
    int low = 0;
    int high = firstKeys.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      MemorySegment first = firstKeys[mid];
      if (order.compare(first, 0, (int) first.byteSize(), key, offset, length) <= 0) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return high;
  }

  /** The encoded size of the entries. */
  int encodedSize() {
    int size = 0;
    for (MemorySegment key : firstKeys) {
      size += ENTRY_FIXED_SIZE + Bytes.vlongSize(key.byteSize()) + (int) key.byteSize();
    }
    return size;
  }

  /**
   * Writes the entries at the buffer's position, which must have {@link #encodedSize} bytes left.
   */
  void encode(ByteBuffer out) {
    for (int i = 0; i < offsets.length; i++) {
      out.putLong(offsets[i]);
      out.putInt(onDiskSizes[i]);
      long keyLength = firstKeys[i].byteSize();
      int position = out.position();
      out.position(position + Bytes.writeVLong(out.array(), position, keyLength));
      out.put(firstKeys[i].toArray(ValueLayout.JAVA_BYTE));
    }
  }

  /** Collects entries in key order as chunks are written. Not thread-safe. */
  static final class Builder {

    private final List<byte[]> firstKeys = new ArrayList<>();
    private long[] offsets = new long[8];
    private int[] onDiskSizes = new int[8];

    void add(byte[] firstKey, long offset, int onDiskSize) {
      int n = firstKeys.size();
      if (n == offsets.length) {
        offsets = Arrays.copyOf(offsets, n * 2);
        onDiskSizes = Arrays.copyOf(onDiskSizes, n * 2);
      }
      offsets[n] = offset;
      onDiskSizes[n] = onDiskSize;
      firstKeys.add(firstKey);
    }

    /** The last offset added, or -1 before the first entry. */
    long lastOffset() {
      return firstKeys.isEmpty() ? -1 : offsets[firstKeys.size() - 1];
    }

    ChunkIndex build(KeyOrder order) {
      int n = firstKeys.size();
      MemorySegment[] keys = new MemorySegment[n];
      for (int i = 0; i < n; i++) {
        keys[i] = MemorySegment.ofArray(firstKeys.get(i));
      }
      return new ChunkIndex(order, Arrays.copyOf(offsets, n), Arrays.copyOf(onDiskSizes, n), keys);
    }
  }
}
