package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Protocol Buffers base-128 unsigned varints, as they prefix varint-delimited messages (the HFile
 * file info block, the trailer). Stateless and thread-safe; reached through {@link Bytes}.
 *
 * <p>Encoding: the value in groups of seven bits, least significant group first, one group per
 * byte; every byte but the last has its top bit set.
 *
 * <pre>
 *  300 = 0b10_0101100  -&gt;  [1_0101100] [0_0000010]  =  0xAC 0x02
 * </pre>
 *
 * A 32-bit value takes at most {@value #MAX_SIZE_32} bytes and a 64-bit one at most {@value
 * #MAX_SIZE_64}. Decoding is strict: a varint longer than that, or whose last byte carries bits
 * beyond the value's width, is rejected as corrupt.
 */
final class ProtobufVarInts {

  /** Largest encoding of an unsigned 32-bit value. */
  static final int MAX_SIZE_32 = 5;

  /** Largest encoding of an unsigned 64-bit value. */
  static final int MAX_SIZE_64 = 10;

  private static final int GROUP_BITS = 7;
  private static final int GROUP_MASK = 0x7F;
  private static final int CONTINUATION = 0x80;

  private ProtobufVarInts() {}

  static int size32(int value) {
    return size64(Integer.toUnsignedLong(value));
  }

  static int size64(long value) {
    int bits = Long.SIZE - Long.numberOfLeadingZeros(value | 1);
    return (bits + GROUP_BITS - 1) / GROUP_BITS;
  }

  static int write32(MemorySegment segment, long offset, int value) {
    return write64(segment, offset, Integer.toUnsignedLong(value));
  }

  static int write64(MemorySegment segment, long offset, long value) {
    int written = 0;
    long rest = value;
    while ((rest & ~GROUP_MASK) != 0) {
      byte group = (byte) ((rest & GROUP_MASK) | CONTINUATION);
      segment.set(ValueLayout.JAVA_BYTE, offset + written++, group);
      rest >>>= GROUP_BITS;
    }
    segment.set(ValueLayout.JAVA_BYTE, offset + written++, (byte) rest);
    return written;
  }

  static int read32(MemorySegment segment, long offset) {
    return (int) decode(segment, offset, MAX_SIZE_32, Integer.SIZE);
  }

  static long read64(MemorySegment segment, long offset) {
    return decode(segment, offset, MAX_SIZE_64, Long.SIZE);
  }

  static int length(MemorySegment segment, long offset) {
    for (int i = 0; i < MAX_SIZE_64; i++) {
      if ((byteAt(segment, offset, i) & CONTINUATION) == 0) {
        return i + 1;
      }
    }
    throw tooLong(offset, MAX_SIZE_64);
  }

  private static long decode(MemorySegment segment, long offset, int maxSize, int width) {
    long value = 0;
    for (int i = 0; i < maxSize; i++) {
      int b = byteAt(segment, offset, i);
      int shift = i * GROUP_BITS;
      if (i == maxSize - 1 && (b >>> (width - shift)) != 0) {
        throw new IllegalArgumentException(
            "varint at offset "
                + offset
                + ": expected a value of at most "
                + width
                + " bits, found final byte 0x"
                + Integer.toHexString(b));
      }
      value |= (long) (b & GROUP_MASK) << shift;
      if ((b & CONTINUATION) == 0) {
        return value;
      }
    }
    throw tooLong(offset, maxSize);
  }

  private static int byteAt(MemorySegment segment, long offset, int index) {
    long position = offset + index;
    if (offset < 0 || position >= segment.byteSize()) {
      throw new IllegalArgumentException(
          "varint at offset "
              + offset
              + ": expected a byte at offset "
              + position
              + ", found the end of the segment at "
              + segment.byteSize());
    }
    return Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, position));
  }

  private static IllegalArgumentException tooLong(long offset, int maxSize) {
    return new IllegalArgumentException(
        "varint at offset " + offset + ": expected at most " + maxSize + " bytes, found more");
  }
}
