package dev.cellar.memory;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A reference-counted view over memory (off-heap or heap {@link MemorySegment}s) with
 * absolute-index access to big-endian primitives, as HBase writes them.
 *
 * <p>A buffer has no position or limit: every access names its index, so one buffer can serve many
 * concurrent readers. It comes in two flavours chosen once, at construction: {@link
 * SingleSegmentBuf} over one segment (the fast path, no per-access branching beyond the bounds and
 * release checks) and {@link CompositeBuf} over several segments, whose reads that cross a segment
 * boundary take a slow path of their own.
 *
 * <p>Ownership follows the package rule (see {@code package-info}): {@link #slice} and {@link
 * #duplicate} share this buffer's count; {@link #retainedSlice} and {@link #retainedDuplicate} also
 * add one reference that the caller must release. Every access after the last release throws {@link
 * IllegalStateException}.
 *
 * <p>Thread-safety: reads are safe from any number of threads while a reference is held. Writes are
 * not synchronized; a buffer is written by one thread before it is published (a block being read
 * from disk, a response being built).
 */
public abstract sealed class Buf permits SingleSegmentBuf, CompositeBuf {

  final RefCnt refCnt;
  final int capacity;

  Buf(RefCnt refCnt, int capacity) {
    this.refCnt = refCnt;
    this.capacity = capacity;
  }

  /** A heap buffer over {@code bytes} (no copy); releasing it frees nothing. */
  public static Buf wrap(byte[] bytes) {
    return new SingleSegmentBuf(RefCnt.unpooled(), MemorySegment.ofArray(bytes));
  }

  /**
   * A buffer over memory owned by someone else (no copy, nothing freed on release). The caller
   * guarantees the segment outlives every use of the buffer.
   */
  public static Buf wrap(MemorySegment segment) {
    return wrap(segment, RefCnt.unpooled());
  }

  /** A buffer over {@code segment} whose last release runs {@code refCnt}'s recycler. */
  public static Buf wrap(MemorySegment segment, RefCnt refCnt) {
    return new SingleSegmentBuf(refCnt, segment);
  }

  /**
   * A buffer over the concatenation of {@code segments} sharing {@code refCnt}; a single segment
   * gives the single-segment flavour.
   */
  public static Buf wrap(MemorySegment[] segments, RefCnt refCnt) {
    if (segments.length == 1) {
      return new SingleSegmentBuf(refCnt, segments[0]);
    }
    return new CompositeBuf(refCnt, segments.clone());
  }

  /** The number of bytes this buffer covers. */
  public final int capacity() {
    return capacity;
  }

  /** True for the single-segment flavour, whose {@link #segment()} is the whole buffer. */
  public abstract boolean isSingleSegment();

  /**
   * The one segment behind a single-segment buffer, for code that works on segments directly
   * (comparisons with {@code MemorySegment.mismatch}, cells read in place). Its lifetime is bounded
   * by the caller's reference.
   *
   * @throws IllegalStateException for a composite buffer
   */
  public abstract MemorySegment segment();

  /** True if every byte of this buffer lives off the Java heap. */
  public abstract boolean isDirect();

  public abstract byte getByte(int index);

  public final int getUnsignedByte(int index) {
    return getByte(index) & 0xFF;
  }

  public abstract short getShort(int index);

  public final int getUnsignedShort(int index) {
    return getShort(index) & 0xFFFF;
  }

  public abstract int getInt(int index);

  public abstract long getLong(int index);

  public abstract void putByte(int index, byte value);

  public abstract void putShort(int index, short value);

  public abstract void putInt(int index, int value);

  public abstract void putLong(int index, long value);

  /** Copies {@code length} bytes at {@code index} into {@code dst} from {@code dstOffset}. */
  public abstract void getBytes(int index, byte[] dst, int dstOffset, int length);

  /** Copies {@code length} bytes of {@code src} from {@code srcOffset} to {@code index}. */
  public abstract void putBytes(int index, byte[] src, int srcOffset, int length);

  /** Copies {@code length} bytes at {@code index} into {@code dst} at {@code dstOffset}. */
  public abstract void getBytes(int index, MemorySegment dst, long dstOffset, int length);

  /** Copies {@code length} bytes of {@code src} at {@code srcOffset} to {@code index}. */
  public abstract void putBytes(int index, MemorySegment src, long srcOffset, int length);

  /** A copy of {@code length} bytes at {@code index}. */
  public final byte[] getBytes(int index, int length) {
    byte[] out = new byte[length];
    getBytes(index, out, 0, length);
    return out;
  }

  /**
   * Copies {@code dst.remaining()} bytes at {@code index} into {@code dst}, advancing its position.
   */
  public final void getBytes(int index, ByteBuffer dst) {
    int length = dst.remaining();
    getBytes(index, MemorySegment.ofBuffer(dst), 0, length);
    dst.position(dst.position() + length);
  }

  /**
   * Copies {@code src.remaining()} bytes of {@code src} to {@code index}, advancing its position.
   */
  public final void putBytes(int index, ByteBuffer src) {
    int length = src.remaining();
    putBytes(index, MemorySegment.ofBuffer(src), 0, length);
    src.position(src.position() + length);
  }

  /** Copies {@code length} bytes at {@code index} into {@code dst} at {@code dstIndex}. */
  public final void copyTo(int index, Buf dst, int dstIndex, int length) {
    Objects.checkFromIndexSize(dstIndex, length, dst.capacity);
    if (dst instanceof SingleSegmentBuf single) {
      single.refCnt.ensureAccessible();
      getBytes(index, single.segment, dstIndex, length);
      return;
    }
    byte[] staging = getBytes(index, length);
    dst.putBytes(dstIndex, staging, 0, length);
  }

  /**
   * A view of {@code length} bytes from {@code index}, sharing this buffer's count (no retain). A
   * slice that falls inside one segment of a composite buffer is single-segment.
   */
  public abstract Buf slice(int index, int length);

  /** A view of the whole buffer sharing this buffer's count (no retain). */
  public final Buf duplicate() {
    return slice(0, capacity);
  }

  /** Like {@link #slice} but adds a reference, which the caller must release. */
  public final Buf retainedSlice(int index, int length) {
    Buf slice = slice(index, length);
    refCnt.retain();
    return slice;
  }

  /** Like {@link #duplicate} but adds a reference, which the caller must release. */
  public final Buf retainedDuplicate() {
    Buf duplicate = duplicate();
    refCnt.retain();
    return duplicate;
  }

  /**
   * A read-only big-endian {@link ByteBuffer} over a single-segment buffer (position 0, limit
   * capacity), for NIO and Netty. The view does not check the reference count: it must not be used
   * after the caller's reference is released.
   *
   * @throws IllegalStateException for a composite buffer; use {@link #readOnlyByteBuffers()}
   */
  public abstract ByteBuffer asReadOnlyByteBuffer();

  /**
   * A {@link ByteBuffer} over this buffer's memory from its first byte, kept by the pool the memory
   * came from and shared with whoever holds that memory after this buffer's last release, possibly
   * longer than this buffer; null when the memory has none (the default). Only for the sole holder
   * of the memory (a block just read, not yet handed to anyone), reading through the position and
   * limit it sets before each use: it spares a view object per pass (a checksum pass over each
   * block read). Like the other views, it does not check the reference count.
   */
  public ByteBuffer soleHolderView() {
    return null;
  }

  /**
   * The attachment kept with this buffer's pooled slot, when this is the slot's reusable buffer
   * (see {@link RecycledHeapArrays#reusableSource()}) and its earlier user attached one; else null
   * (the default).
   */
  public SlotAttachment slotAttachment() {
    return null;
  }

  /**
   * Keeps {@code attachment} with this buffer's slot for the slot's next users; false, keeping
   * nothing, when this is no slot's reusable buffer (the default).
   */
  public boolean attachToSlot(SlotAttachment attachment) {
    return false;
  }

  /** Read-only big-endian views of the buffer's segments, in order (one for single-segment). */
  public abstract ByteBuffer[] readOnlyByteBuffers();

  /**
   * Writable views of {@code length} bytes from {@code index}, one per segment touched, for
   * positional I/O (reading a file block straight into the buffer). Same lifetime rule as {@link
   * #asReadOnlyByteBuffer()}.
   */
  public abstract ByteBuffer[] writableByteBuffers(int index, int length);

  /**
   * Who the last release of this buffer (and of every view sharing its count) returns the memory
   * to, or null: for an owner that lent the memory recognising it when it comes back.
   */
  public final Recycler owner() {
    return refCnt.recycler();
  }

  /** The current reference count; zero once released. */
  public final int refCnt() {
    return refCnt.refCnt();
  }

  /** Adds one reference; returns this buffer. */
  public final Buf retain() {
    refCnt.retain();
    return this;
  }

  /**
   * Adds one reference unless the buffer was already released.
   *
   * @return false, changing nothing, if the last reference is gone
   */
  public final boolean tryRetain() {
    return refCnt.tryRetain();
  }

  /**
   * As {@link #tryRetain()}, while the buffer is still in {@code generation} (see {@link
   * RefCnt#tryRetain(int)}): for a holder that kept it without a reference.
   */
  public final boolean tryRetain(int generation) {
    return refCnt.tryRetain(generation);
  }

  /** The generation of this buffer's count (see {@link RefCnt#generation()}). */
  public final int generation() {
    return refCnt.generation();
  }

  /** Adds {@code increment} references; returns this buffer. */
  public final Buf retain(int increment) {
    refCnt.retain(increment);
    return this;
  }

  /**
   * Drops one reference; the last one returns the memory.
   *
   * @return true if this release freed the memory
   */
  public final boolean release() {
    return refCnt.release();
  }

  /** Records an access point for leak reports; returns this buffer. */
  public final Buf touch(Object hint) {
    refCnt.touch(hint);
    return this;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "[capacity="
        + capacity
        + ", refCnt="
        + refCnt()
        + (isDirect() ? ", direct]" : ", heap]");
  }
}
