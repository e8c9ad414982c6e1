package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A growable heap buffer that an encoder writes one block payload into. Not thread-safe: owned by
 * one encoder, reset and reused for every block, so that steady-state encoding allocates only the
 * finished payload.
 *
 * <p>Multi-byte integers are big-endian unless the method says otherwise. HBase's "compressed int"
 * (7 bits per byte, least significant group first) is byte-for-byte a protobuf varint for the
 * non-negative values encoders write, and is written as one.
 */
final class BlockOutput {

  private static final int INITIAL_CAPACITY = 4096;
  private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;
  private static final int MAX_VLONG_SIZE = 9;
  private static final int MAX_VARINT32_SIZE = 5;

  private byte[] bytes = new byte[INITIAL_CAPACITY];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private int size;

  /** Returns the number of bytes written since the last {@link #reset()}. */
  int size() {
    return size;
  }

  /** Returns the memory written so far; valid until the next write, which may move it. */
  MemorySegment segment() {
    return segment;
  }

  /** Forgets what was written, keeping the memory for the next block. */
  void reset() {
    size = 0;
  }

  /** Returns a copy of what was written. */
  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  void writeByte(int value) {
    ensure(Byte.BYTES);
    segment.set(ByteLayouts.BYTE, size, (byte) value);
    size += Byte.BYTES;
  }

  void writeShort(int value) {
    ensure(Short.BYTES);
    segment.set(ByteLayouts.SHORT_BE, size, (short) value);
    size += Short.BYTES;
  }

  void writeInt(int value) {
    ensure(Integer.BYTES);
    segment.set(ByteLayouts.INT_BE, size, value);
    size += Integer.BYTES;
  }

  /** Overwrites four bytes written earlier, at {@code position}. */
  void putInt(int position, int value) {
    segment.set(ByteLayouts.INT_BE, position, value);
  }

  /** Writes a non-negative int as HBase's compressed int (a protobuf varint). */
  void writeCompressedInt(int value) {
    ensure(MAX_VARINT32_SIZE);
    size += Bytes.writeVarint32(segment, size, value);
  }

  /** Writes a Hadoop vlong. */
  void writeVLong(long value) {
    ensure(MAX_VLONG_SIZE);
    size += Bytes.writeVLong(segment, size, value);
  }

  /** Writes the low {@code count} bytes of {@code value}, least significant first. */
  void writeLittleEndian(long value, int count) {
    ensure(count);
    for (int i = 0; i < count; i++) {
      segment.set(ByteLayouts.BYTE, size + i, (byte) (value >>> (i * Byte.SIZE)));
    }
    size += count;
  }

  /** Copies {@code length} bytes of {@code source} from {@code offset}. */
  void write(MemorySegment source, long offset, int length) {
    ensure(length);
    MemorySegment.copy(source, offset, segment, size, length);
    size += length;
  }

  private void ensure(int extra) {
    if (extra <= bytes.length - size) {
      return;
    }
    long needed = (long) size + extra;
    if (needed > MAX_CAPACITY) {
      throw new IllegalStateException(
          "a block payload holds at most " + MAX_CAPACITY + " bytes, this one needs " + needed);
    }
    int capacity = (int) Math.min(MAX_CAPACITY, Math.max(needed, 2L * bytes.length));
    bytes = Arrays.copyOf(bytes, capacity);
    segment = MemorySegment.ofArray(bytes);
  }
}
