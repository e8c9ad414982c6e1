package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Hadoop {@code WritableUtils} variable-length longs, as HBase writes memstore timestamps after
 * cells and key lengths in block indexes. Stateless and thread-safe; reached through {@link Bytes}.
 *
 * <p>Encoding of a value {@code v}:
 *
 * <pre>
 *  -112 &lt;= v &lt;= 127:  one byte, v itself.
 *  otherwise:          [first byte][n magnitude bytes, big-endian]
 *                      v &gt;= 0: magnitude = v,        first byte = -112 - n   (-113 .. -120)
 *                      v &lt;  0: magnitude = ~v (= -v-1), first byte = -120 - n   (-121 .. -128)
 *                      n = number of significant bytes of the magnitude (1..8)
 * </pre>
 *
 * So the first byte alone gives the encoded size, and the sign. A magnitude is read as one
 * big-endian word shifted into place when eight bytes follow the first one, else byte by byte.
 */
final class WritableVarLongs {

  /** Largest encoded size: a first byte plus eight magnitude bytes. */
  static final int MAX_SIZE = 1 + Long.BYTES;

  private static final int SINGLE_BYTE_MIN = -112;
  private static final ValueLayout.OfLong LONG_BE =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
  private static final int NEGATIVE_BASE = -120;

  private WritableVarLongs() {}

  static int size(long value) {
    if (value >= SINGLE_BYTE_MIN && value <= Byte.MAX_VALUE) {
      return 1;
    }
    long magnitude = value < 0 ? ~value : value;
    return 1 + magnitudeBytes(magnitude);
  }

  static int sizeFromFirstByte(byte first) {
    if (first >= SINGLE_BYTE_MIN) {
      return 1;
    }
    return first < NEGATIVE_BASE ? NEGATIVE_BASE + 1 - first : SINGLE_BYTE_MIN + 1 - first;
  }

  static int write(MemorySegment segment, long offset, long value) {
    if (value >= SINGLE_BYTE_MIN && value <= Byte.MAX_VALUE) {
      segment.set(ValueLayout.JAVA_BYTE, offset, (byte) value);
      return 1;
    }
    boolean negative = value < 0;
    long magnitude = negative ? ~value : value;
    int n = magnitudeBytes(magnitude);
    int first = (negative ? NEGATIVE_BASE : SINGLE_BYTE_MIN) - n;
    segment.set(ValueLayout.JAVA_BYTE, offset, (byte) first);
    for (int i = 1; i <= n; i++) {
      int shift = (n - i) * Byte.SIZE;
      segment.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (magnitude >>> shift));
    }
    return 1 + n;
  }

  static long read(MemorySegment segment, long offset) {
    checkAvailable(segment, offset, 1);
    byte first = segment.get(ValueLayout.JAVA_BYTE, offset);
    int size = sizeFromFirstByte(first);
    if (size == 1) {
      return first;
    }
    checkAvailable(segment, offset, size);
    long magnitude;
    if (offset + 1 <= segment.byteSize() - Long.BYTES) {
      long word = segment.get(LONG_BE, offset + 1);
      magnitude = word >>> (Byte.SIZE * (MAX_SIZE - size));
    } else {
      magnitude = 0;
      for (int i = 1; i < size; i++) {
        long next = Byte.toUnsignedLong(segment.get(ValueLayout.JAVA_BYTE, offset + i));
        magnitude = (magnitude << Byte.SIZE) | next;
      }
    }
    return fromParts(first, magnitude);
  }

  static long fromParts(byte first, long magnitude) {
    return first < NEGATIVE_BASE ? ~magnitude : magnitude;
  }

  static int readInt(MemorySegment segment, long offset) {
    long value = read(segment, offset);
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "vint at offset " + offset + ": expected a value that fits an int, found " + value);
    }
    return (int) value;
  }

  private static int magnitudeBytes(long magnitude) {
    int bits = Long.SIZE - Long.numberOfLeadingZeros(magnitude);
    return (bits + Byte.SIZE - 1) / Byte.SIZE;
  }

  private static void checkAvailable(MemorySegment segment, long offset, int size) {
    if (offset < 0 || offset > segment.byteSize() - size) {
      throw new IllegalArgumentException(
          "vlong at offset "
              + offset
              + ": expected "
              + size
              + " bytes, found "
              + Math.max(0, segment.byteSize() - offset)
              + " before the end of the segment");
    }
  }
}
