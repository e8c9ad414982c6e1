package dev.cellar.memory;

import static dev.cellar.memory.ByteLayouts.BYTE;
import static dev.cellar.memory.ByteLayouts.INT_BE;
import static dev.cellar.memory.ByteLayouts.LONG_BE;
import static dev.cellar.memory.ByteLayouts.SHORT_BE;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A buffer over the concatenation of several segments (a pooled allocation larger than one pool
 * buffer, with a heap tail). A primitive that lies inside one segment is read directly; one that
 * crosses a boundary is assembled byte by byte in a separate slow-path method.
 */
public final class CompositeBuf extends Buf {

  /** Below this many segments a linear scan finds an index faster than a binary search. */
  private static final int LINEAR_SEARCH_MAX = 8;

  private final MemorySegment[] segments;

  /** starts[i] is the buffer index of segments[i]'s first byte; starts[n] is the capacity. */
  private final int[] starts;

  CompositeBuf(RefCnt refCnt, MemorySegment[] segments) {
    super(refCnt, totalSize(segments));
    this.segments = segments;
    this.starts = new int[segments.length + 1];
    for (int i = 0; i < segments.length; i++) {
      starts[i + 1] = starts[i] + (int) segments[i].byteSize();
    }
  }

  private static int totalSize(MemorySegment[] segments) {
    if (segments.length < 2) {
      throw new IllegalArgumentException("a composite buffer needs at least two segments");
    }
    long total = 0;
    for (MemorySegment segment : segments) {
      total += segment.byteSize();
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a Buf covers at most 2 GiB - 1 bytes, segments hold " + total);
    }
    return (int) total;
  }

  /** The number of segments behind this buffer. */
  public int segmentCount() {
    return segments.length;
  }

  @Override
  public boolean isSingleSegment() {
    return false;
  }

  @Override
  public MemorySegment segment() {
    throw new IllegalStateException(
        "composite buffer spans " + segments.length + " segments; it has no single segment");
  }

  @Override
  public boolean isDirect() {
    for (MemorySegment segment : segments) {
      if (!segment.isNative()) {
        return false;
      }
    }
    return true;
  }

  /** The index of the segment holding buffer index {@code index} (which must be in bounds). */
  private int locate(int index) {
    if (segments.length <= LINEAR_SEARCH_MAX) {
      int i = 0;
      while (index >= starts[i + 1]) {
        i++;
      }
      return i;
    }
    int found = Arrays.binarySearch(starts, 0, segments.length, index);
    return found >= 0 ? found : -found - 2;
  }

  @Override
  public byte getByte(int index) {
    refCnt.ensureAccessible();
    Objects.checkIndex(index, capacity);
    int i = locate(index);
    return segments[i].get(BYTE, index - starts[i]);
  }

  @Override
  public short getShort(int index) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, Short.BYTES, capacity);
    int i = locate(index);
    if (index + Short.BYTES <= starts[i + 1]) {
      return segments[i].get(SHORT_BE, index - starts[i]);
    }
    return (short) readAcross(index, Short.BYTES);
  }

  @Override
  public int getInt(int index) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, Integer.BYTES, capacity);
    int i = locate(index);
    if (index + Integer.BYTES <= starts[i + 1]) {
      return segments[i].get(INT_BE, index - starts[i]);
    }
    return (int) readAcross(index, Integer.BYTES);
  }

  @Override
  public long getLong(int index) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, Long.BYTES, capacity);
    int i = locate(index);
    if (index + Long.BYTES <= starts[i + 1]) {
      return segments[i].get(LONG_BE, index - starts[i]);
    }
    return readAcross(index, Long.BYTES);
  }

  /** Slow path: a big-endian value of {@code width} bytes that crosses a segment boundary. */
  private long readAcross(int index, int width) {
    long value = 0;
    for (int k = 0; k < width; k++) {
      int at = index + k;
      int i = locate(at);
      value = (value << 8) | (segments[i].get(BYTE, at - starts[i]) & 0xFF);
    }
    return value;
  }

  /**
   * Slow path: writes the low {@code width} bytes of {@code value} big-endian across a boundary.
   */
  private void writeAcross(int index, int width, long value) {
    for (int k = 0; k < width; k++) {
      int at = index + k;
      int i = locate(at);
      segments[i].set(BYTE, at - starts[i], (byte) (value >>> (8 * (width - 1 - k))));
    }
  }

  @Override
  public void putByte(int index, byte value) {
    refCnt.ensureAccessible();
    Objects.checkIndex(index, capacity);
    int i = locate(index);
    segments[i].set(BYTE, index - starts[i], value);
  }

  @Override
  public void putShort(int index, short value) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, Short.BYTES, capacity);
    int i = locate(index);
    if (index + Short.BYTES <= starts[i + 1]) {
      segments[i].set(SHORT_BE, index - starts[i], value);
    } else {
      writeAcross(index, Short.BYTES, value);
    }
  }

  @Override
  public void putInt(int index, int value) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, Integer.BYTES, capacity);
    int i = locate(index);
    if (index + Integer.BYTES <= starts[i + 1]) {
      segments[i].set(INT_BE, index - starts[i], value);
    } else {
      writeAcross(index, Integer.BYTES, value);
    }
  }

  @Override
  public void putLong(int index, long value) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, Long.BYTES, capacity);
    int i = locate(index);
    if (index + Long.BYTES <= starts[i + 1]) {
      segments[i].set(LONG_BE, index - starts[i], value);
    } else {
      writeAcross(index, Long.BYTES, value);
    }
  }

  @Override
  public void getBytes(int index, byte[] dst, int dstOffset, int length) {
    getBytes(
        index, MemorySegment.ofArray(dst), dstOffset, lengthWithin(dst.length, dstOffset, length));
  }

  @Override
  public void putBytes(int index, byte[] src, int srcOffset, int length) {
    putBytes(
        index, MemorySegment.ofArray(src), srcOffset, lengthWithin(src.length, srcOffset, length));
  }

  private static int lengthWithin(int arrayLength, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, arrayLength);
    return length;
  }

  @Override
  public void getBytes(int index, MemorySegment dst, long dstOffset, int length) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, length, capacity);
    copy(index, dst, dstOffset, length, true);
  }

  @Override
  public void putBytes(int index, MemorySegment src, long srcOffset, int length) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, length, capacity);
    copy(index, src, srcOffset, length, false);
  }

  /** Copies between this buffer's range and {@code other}, one segment piece at a time. */
  private void copy(int index, MemorySegment other, long otherOffset, int length, boolean out) {
    int done = 0;
    while (done < length) {
      int at = index + done;
      int i = locate(at);
      int inSegment = at - starts[i];
      int piece = Math.min(length - done, starts[i + 1] - at);
      if (out) {
        MemorySegment.copy(segments[i], inSegment, other, otherOffset + done, piece);
      } else {
        MemorySegment.copy(other, otherOffset + done, segments[i], inSegment, piece);
      }
      done += piece;
    }
  }

  @Override
  public Buf slice(int index, int length) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, length, capacity);
    if (length == 0) {
      return new SingleSegmentBuf(refCnt, segments[0].asSlice(0, 0));
    }
    MemorySegment[] pieces = pieces(index, length);
    return pieces.length == 1
        ? new SingleSegmentBuf(refCnt, pieces[0])
        : new CompositeBuf(refCnt, pieces);
  }

  /** The segment slices covering {@code length > 0} bytes from {@code index}. */
  private MemorySegment[] pieces(int index, int length) {
    int first = locate(index);
    int last = locate(index + length - 1);
    MemorySegment[] pieces = new MemorySegment[last - first + 1];
    for (int i = first; i <= last; i++) {
      int from = Math.max(index, starts[i]);
      int to = Math.min(index + length, starts[i + 1]);
      pieces[i - first] = segments[i].asSlice(from - starts[i], to - from);
    }
    return pieces;
  }

  @Override
  public ByteBuffer asReadOnlyByteBuffer() {
    throw new IllegalStateException(
        "composite buffer spans "
            + segments.length
            + " segments; use readOnlyByteBuffers() for a view of each");
  }

  @Override
  public ByteBuffer[] readOnlyByteBuffers() {
    refCnt.ensureAccessible();
    ByteBuffer[] views = new ByteBuffer[segments.length];
    for (int i = 0; i < segments.length; i++) {
      views[i] = segments[i].asByteBuffer().asReadOnlyBuffer().order(ByteOrder.BIG_ENDIAN);
    }
    return views;
  }

  @Override
  public ByteBuffer[] writableByteBuffers(int index, int length) {
    refCnt.ensureAccessible();
    Objects.checkFromIndexSize(index, length, capacity);
    if (length == 0) {
      return new ByteBuffer[] {ByteBuffer.allocate(0)};
    }
    MemorySegment[] pieces = pieces(index, length);
    ByteBuffer[] views = new ByteBuffer[pieces.length];
    for (int i = 0; i < pieces.length; i++) {
      views[i] = pieces[i].asByteBuffer();
    }
    return views;
  }
}
