package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.memory.Buf;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A bounds-checked sequential reader over one block payload. Not thread-safe: owned by one seeker,
 * which points it at each block it reads.
 *
 * <p>Every read checks the payload's end first and reports a read past it, or a value the encoding
 * cannot hold, as a {@link MalformedBlockException} at the payload offset where the field starts,
 * so that no {@code IndexOutOfBoundsException} ever escapes from malformed bytes. Reading allocates
 * nothing; only the failure path builds messages.
 *
 * <p>Fields of a few bytes (flags, lengths, timestamps, sequence ids) are read out of a window: the
 * eight payload bytes from {@code windowAt}, fetched with one big-endian load and kept in a {@code
 * long}, so the bytes of a cell's header cost shifts rather than a checked memory access each.
 * Blocks are immutable while a seeker reads them, so the window only has to follow the position and
 * is dropped when the reader moves to another payload. Bytes past the segment's end read as zero in
 * the window; the end checks against the payload's limit come first, so they are never returned.
 *
 * <p>HBase's "compressed int" (CINT): 7 bits per byte, least significant group first, the high bit
 * set on every byte but the last, at most {@value #CINT_MAX_SIZE} bytes. Lengths and prefixes are
 * never negative, so a CINT decoding to a negative value is malformed.
 */
final class PayloadReader {

  private static final int CINT_MAX_SIZE = 5;

  /** The longest copy made with eight-byte moves rather than a bulk copy. */
  private static final int SHORT_COPY = 4 * Long.BYTES;

  private static final int CINT_GROUP_BITS = 7;
  private static final int CINT_GROUP_MASK = 0x7F;
  private static final int CINT_CONTINUATION = 0x80;

  /** A window start no read falls behind: every read refills. */
  private static final int NO_WINDOW = Integer.MIN_VALUE;

  private final DataBlockEncoding encoding;
  private MemorySegment segment;
  private int limit;
  private int position;
  private long window;
  private int windowAt;
  private int firstInt;
  private int secondInt;
  private int thirdInt;

  PayloadReader(DataBlockEncoding encoding) {
    this.encoding = encoding;
  }

  /**
   * Returns the one memory segment of a payload.
   *
   * @throws IllegalArgumentException if the payload spans several segments
   */
  static MemorySegment segmentOf(Buf payload) {
    if (!payload.isSingleSegment()) {
      throw new IllegalArgumentException(
          "a block seeker reads a payload held in one memory segment; this one has "
              + payload.capacity()
              + " bytes in several: copy it into one buffer first");
    }
    return payload.segment();
  }

  /** Reads the payload, the first {@code length} bytes of {@code segment}, from position 0. */
  void reset(MemorySegment segment, int length) {
    if (length < 0 || length > segment.byteSize()) {
      throw new IllegalArgumentException(
          "a payload of " + length + " bytes in a segment of " + segment.byteSize());
    }
    this.segment = segment;
    this.limit = length;
    this.position = 0;
    this.windowAt = NO_WINDOW;
  }

  /**
   * Returns the {@code count} bytes (0 to 8) at {@code at}, which {@link #require} checked, as the
   * low bytes of a big-endian number, refilling the window when they are not all in it.
   */
  private long fromWindow(int at, int count) {
    int skip = at - windowAt;
    if (skip < 0 || skip + count > Long.BYTES) {
      fill(at);
      skip = 0;
    }
    return count == 0 ? 0 : (window << (skip * Byte.SIZE)) >>> (Long.SIZE - count * Byte.SIZE);
  }

  private void fill(int at) {
    windowAt = at;
    if (at + Long.BYTES <= segment.byteSize()) {
      window = segment.get(ByteLayouts.LONG_BE, at);
      return;
    }
    long bytes = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      int next = at + i < segment.byteSize() ? segment.get(ByteLayouts.BYTE, at + i) & 0xFF : 0;
      bytes = (bytes << Byte.SIZE) | next;
    }
    window = bytes;
  }

  MemorySegment segment() {
    return segment;
  }

  int position() {
    return position;
  }

  void position(int newPosition) {
    position = newPosition;
  }

  int limit() {
    return limit;
  }

  int remaining() {
    return limit - position;
  }

  boolean hasRemaining() {
    return position < limit;
  }

  /**
   * Checks that {@code count} bytes named {@code what} follow and moves past them; returns their
   * position.
   */
  int require(int count, String what) {
    if (count < 0 || count > limit - position) {
      throw malformed(
          position,
          count + " bytes of " + what,
          Math.max(0, limit - position) + " bytes before the end at " + limit);
    }
    int at = position;
    position += count;
    return at;
  }

  byte readByte(String what) {
    return (byte) fromWindow(require(Byte.BYTES, what), Byte.BYTES);
  }

  int readUnsignedByte(String what) {
    return Byte.toUnsignedInt(readByte(what));
  }

  short readShort(String what) {
    return segment.get(ByteLayouts.SHORT_BE, require(Short.BYTES, what));
  }

  int readInt(String what) {
    return segment.get(ByteLayouts.INT_BE, require(Integer.BYTES, what));
  }

  /** Reads the 2-byte encoding id and checks that it is this reader's encoding. */
  void expectEncodingId() {
    int at = position;
    short id = readShort("the encoding id");
    if (id != encoding.id()) {
      throw malformed(at, "encoding id " + encoding.id() + " (" + encoding + ")", "id " + id);
    }
  }

  /** Reads a compressed int that must be non-negative. */
  int readCompressedInt(String what) {
    int start = position;
    int first = readUnsignedByte(what);
    if ((first & CINT_CONTINUATION) == 0) {
      return first;
    }
    long value = first & CINT_GROUP_MASK;
    for (int i = 1; i < CINT_MAX_SIZE; i++) {
      int next = readUnsignedByte(what);
      value |= (long) (next & CINT_GROUP_MASK) << (i * CINT_GROUP_BITS);
      if ((next & CINT_CONTINUATION) == 0) {
        if (value > Integer.MAX_VALUE) {
          throw malformed(start, what + " as a non-negative compressed int", "value " + value);
        }
        return (int) value;
      }
    }
    throw malformed(
        start, what + " as a compressed int of at most " + CINT_MAX_SIZE + " bytes", "more");
  }

  /**
   * Reads three compressed ints (a cell header's lengths) when each takes at most four bytes and
   * all lie in the window's bytes from the position: one window check and shifts instead of a
   * checked read per byte. Returns the three as {@link #firstInt}, {@link #secondInt} and {@link
   * #thirdInt}; false, with nothing read, when they do not so lie (or run past the limit), for the
   * caller to read them one by one.
   */
  boolean readThreeCompressedInts() {
    int at = position;
    int skip = at - windowAt;
    if (skip < 0 || skip > Long.BYTES - 3) {
      if (at >= limit) {
        return false;
      }
      fill(at);
      skip = 0;
    }
    long bytes = window << (skip * Byte.SIZE);
    int available = Math.min(Long.BYTES - skip, limit - at);
    int used = 0;
    int first = 0;
    int second = 0;
    int third = 0;
    for (int index = 0; index < 3; index++) {
      int value = 0;
      int shift = 0;
      int next;
      do {
        if (used == available || shift > 3 * CINT_GROUP_BITS) {
          return false;
        }
        next = (int) (bytes >>> (Long.SIZE - Byte.SIZE)) & 0xFF;
        bytes <<= Byte.SIZE;
        used++;
        value |= (next & CINT_GROUP_MASK) << shift;
        shift += CINT_GROUP_BITS;
      } while ((next & CINT_CONTINUATION) != 0);
      switch (index) {
        case 0 -> first = value;
        case 1 -> second = value;
        default -> third = value;
      }
    }
    firstInt = first;
    secondInt = second;
    thirdInt = third;
    position = at + used;
    return true;
  }

  /** The ints {@link #readThreeCompressedInts} read last. */
  int firstInt() {
    return firstInt;
  }

  int secondInt() {
    return secondInt;
  }

  int thirdInt() {
    return thirdInt;
  }

  /** Reads {@code count} bytes (0 to 8) as an unsigned little-endian number. */
  long readLittleEndian(int count, String what) {
    long bigEndian = readBigEndian(count, what);
    return count == 0 ? 0 : Long.reverseBytes(bigEndian) >>> (Long.SIZE - count * Byte.SIZE);
  }

  /** Reads {@code count} bytes (0 to 8) as an unsigned big-endian number. */
  long readBigEndian(int count, String what) {
    return fromWindow(require(count, what), count);
  }

  /** Reads a Hadoop vlong. */
  long readVLong(String what) {
    int at = position;
    byte first = readByte(what);
    int size = Bytes.vlongSizeFromFirstByte(first);
    if (size == 1) {
      return first;
    }
    position = at;
    require(size, what);
    return Bytes.vlongFromParts(first, fromWindow(at + 1, size - 1));
  }

  /**
   * Copies {@code count} bytes into {@code target} at {@code targetOffset}: up to eight (a key's
   * changed tail, mostly) out of the window, up to {@value #SHORT_COPY} (the tail of a PREFIX key)
   * as eight-byte loads and stores, the last one overlapping the one before, more with a bulk copy.
   */
  void copyTo(int count, byte[] target, int targetOffset, String what) {
    int at = require(count, what);
    if (count > SHORT_COPY) {
      MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, at, target, targetOffset, count);
      return;
    }
    Objects.checkFromIndexSize(targetOffset, count, target.length);
    if (count > Long.BYTES) {
      int last = count - Long.BYTES;
      for (int i = 0; i < last; i += Long.BYTES) {
        Bytes.putLong(target, targetOffset + i, segment.get(ByteLayouts.LONG_BE, at + i));
      }
      Bytes.putLong(target, targetOffset + last, segment.get(ByteLayouts.LONG_BE, at + last));
      return;
    }
    long bytes = fromWindow(at, count);
    for (int i = count - 1; i >= 0; i--) {
      target[targetOffset + i] = (byte) bytes;
      bytes >>>= Byte.SIZE;
    }
  }

  /**
   * Whether {@link #copyOver} may write at {@code targetOffset} of {@code target}: eight bytes from
   * there lie in it.
   */
  static boolean roomToCopyOver(byte[] target, int targetOffset) {
    return targetOffset >= 0 && targetOffset <= target.length - Long.BYTES;
  }

  /**
   * Copies {@code count} bytes (0 to 8) into {@code target} at {@code targetOffset} with one
   * eight-byte store out of the window, which also overwrites the {@code 8 - count} bytes after
   * them (with the payload's next bytes, or zeros past its end): for a caller that writes those
   * bytes afterwards, or puts them back. {@code target} must have {@link #roomToCopyOver room}.
   */
  void copyOver(int count, byte[] target, int targetOffset, String what) {
    int at = require(count, what);
    int skip = at - windowAt;
    if (skip < 0 || skip + count > Long.BYTES) {
      fill(at);
      skip = 0;
    }
    Bytes.putLong(target, targetOffset, skip == Long.BYTES ? 0 : window << (skip * Byte.SIZE));
  }

  /** Returns an exception for a problem at payload offset {@code at}. */
  MalformedBlockException malformed(long at, String expected, String found) {
    return new MalformedBlockException(encoding, at, expected, found);
  }
}
