package dev.cellar.memory;

import static dev.cellar.memory.ByteLayouts.BYTE;
import static dev.cellar.memory.ByteLayouts.INT_BE;
import static dev.cellar.memory.ByteLayouts.LONG_BE;
import static dev.cellar.memory.ByteLayouts.SHORT_BE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A buffer over exactly one {@link MemorySegment}: every access is a release check plus one
 * bounds-checked segment access, which the JIT turns into a load and a byte swap.
 */
public final class SingleSegmentBuf extends Buf {

  final MemorySegment segment;

  SingleSegmentBuf(RefCnt refCnt, MemorySegment segment) {
    super(refCnt, checkedCapacity(segment));
    this.segment = segment;
  }

  private static int checkedCapacity(MemorySegment segment) {
    long size = segment.byteSize();
    if (size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a Buf covers at most 2 GiB - 1 bytes, segment has " + size);
    }
    return (int) size;
  }

  @Override
  public boolean isSingleSegment() {
    return true;
  }

  @Override
  public MemorySegment segment() {
    refCnt.ensureAccessible();
    return segment;
  }

  @Override
  public ByteBuffer soleHolderView() {
    Recycler recycler = refCnt.recycler();
    if (recycler instanceof BufferPool pool) {
      return pool.soleHolderView(refCnt.token(), segment);
    }
    return recycler instanceof ReusableSlots.Owner owner
        ? owner.reusableSlots().soleHolderView(refCnt.token(), this, segment)
        : null;
  }

  @Override
  public SlotAttachment slotAttachment() {
    return refCnt.recycler() instanceof ReusableSlots.Owner pool
        ? pool.reusableSlots().attachment(refCnt.token(), this)
        : null;
  }

  @Override
  public boolean attachToSlot(SlotAttachment attachment) {
    return refCnt.recycler() instanceof ReusableSlots.Owner pool
        && pool.reusableSlots().attach(refCnt.token(), this, attachment);
  }

  @Override
  public boolean isDirect() {
    return segment.isNative();
  }

  @Override
  public byte getByte(int index) {
    refCnt.ensureAccessible();
    return segment.get(BYTE, index);
  }

  @Override
  public short getShort(int index) {
    refCnt.ensureAccessible();
    return segment.get(SHORT_BE, index);
  }

  @Override
  public int getInt(int index) {
    refCnt.ensureAccessible();
    return segment.get(INT_BE, index);
  }

  @Override
  public long getLong(int index) {
    refCnt.ensureAccessible();
    return segment.get(LONG_BE, index);
  }

  @Override
  public void putByte(int index, byte value) {
    refCnt.ensureAccessible();
    segment.set(BYTE, index, value);
  }

  @Override
  public void putShort(int index, short value) {
    refCnt.ensureAccessible();
    segment.set(SHORT_BE, index, value);
  }

  @Override
  public void putInt(int index, int value) {
    refCnt.ensureAccessible();
    segment.set(INT_BE, index, value);
  }

  @Override
  public void putLong(int index, long value) {
    refCnt.ensureAccessible();
    segment.set(LONG_BE, index, value);
  }

  @Override
  public void getBytes(int index, byte[] dst, int dstOffset, int length) {
    refCnt.ensureAccessible();
    MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, index, dst, dstOffset, length);
  }

  @Override
  public void putBytes(int index, byte[] src, int srcOffset, int length) {
    refCnt.ensureAccessible();
    MemorySegment.copy(src, srcOffset, segment, ValueLayout.JAVA_BYTE, index, length);
  }

  @Override
  public void getBytes(int index, MemorySegment dst, long dstOffset, int length) {
    refCnt.ensureAccessible();
    MemorySegment.copy(segment, index, dst, dstOffset, length);
  }

  @Override
  public void putBytes(int index, MemorySegment src, long srcOffset, int length) {
    refCnt.ensureAccessible();
    MemorySegment.copy(src, srcOffset, segment, index, length);
  }

  @Override
  public Buf slice(int index, int length) {
    refCnt.ensureAccessible();
    return new SingleSegmentBuf(refCnt, segment.asSlice(index, length));
  }

  @Override
  public ByteBuffer asReadOnlyByteBuffer() {
    refCnt.ensureAccessible();
    return segment.asByteBuffer().asReadOnlyBuffer().order(ByteOrder.BIG_ENDIAN);
  }

  @Override
  public ByteBuffer[] readOnlyByteBuffers() {
    return new ByteBuffer[] {asReadOnlyByteBuffer()};
  }

  @Override
  public ByteBuffer[] writableByteBuffers(int index, int length) {
    refCnt.ensureAccessible();
    return new ByteBuffer[] {segment.asSlice(index, length).asByteBuffer()};
  }
}
