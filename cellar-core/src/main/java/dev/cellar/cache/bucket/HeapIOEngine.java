package dev.cellar.cache.bucket;

import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.lang.foreign.MemorySegment;

/**
 * The {@code heap} engine, kept to compare against {@code offheap}: the capacity as one {@code
 * byte[]} per segment, shared with readers through zero-copy views.
 *
 * <p><b>Memory.</b> The arrays belong to the engine and are garbage once it is dropped; {@link
 * #close()} frees nothing. Each array is wrapped once in a heap {@link MemorySegment}, so a view is
 * a slice of one of them carrying the cached entry's {@link RefCnt}. An access must stay inside one
 * segment (the cache sizes segments as whole buckets); one that does not throws {@link
 * IllegalArgumentException}. Not persistent.
 *
 * <p><b>Concurrency.</b> The segment table is final and never changes: disjoint ranges may be read,
 * written and viewed from any thread at once. {@link #close()} does nothing, so it cannot race.
 */
public final class HeapIOEngine implements IOEngine {

  /** The largest array the JVM reliably allocates. */
  private static final long MAX_SEGMENT_SIZE = Integer.MAX_VALUE - 8;

  private final long capacity;
  private final long segmentSize;
  private final MemorySegment[] segments;

  /**
   * Allocates {@code capacity / segmentSize} arrays of {@code segmentSize} bytes.
   *
   * @throws IllegalArgumentException if the capacity is not a positive multiple of the segment
   *     size, or a segment is too large for an array
   */
  public HeapIOEngine(long capacity, long segmentSize) {
    EngineChecks.checkSizes(capacity, segmentSize);
    if (segmentSize > MAX_SEGMENT_SIZE) {
      throw new IllegalArgumentException(
          "a heap engine segment is one array of at most "
              + MAX_SEGMENT_SIZE
              + " bytes, not "
              + segmentSize);
    }
    long count = capacity / segmentSize;
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many segments: " + count);
    }
    this.capacity = capacity;
    this.segmentSize = segmentSize;
    this.segments = new MemorySegment[(int) count];
    for (int i = 0; i < segments.length; i++) {
      segments[i] = MemorySegment.ofArray(new byte[(int) segmentSize]);
    }
  }

  @Override
  public long capacity() {
    return capacity;
  }

  @Override
  public boolean isPersistent() {
    return false;
  }

  @Override
  public boolean sharesMemory() {
    return true;
  }

  @Override
  public void write(Buf src, int srcIndex, int length, long offset) {
    int index = segmentOf(offset, length);
    src.getBytes(srcIndex, segments[index], offset - index * segmentSize, length);
  }

  @Override
  public void read(long offset, Buf dst, int dstIndex, int length) {
    int index = segmentOf(offset, length);
    dst.putBytes(dstIndex, segments[index], offset - index * segmentSize, length);
  }

  @Override
  public Buf view(long offset, int length, RefCnt refCnt) {
    int index = segmentOf(offset, length);
    return Buf.wrap(segments[index].asSlice(offset - index * segmentSize, length), refCnt);
  }

  /** The segment holding the access, checked to be in range and inside that one segment. */
  private int segmentOf(long offset, int length) {
    EngineChecks.checkRange(this, offset, length);
    // An empty access at the very end of the capacity belongs to the last segment.
    int index = (int) Math.min(offset / segmentSize, segments.length - 1);
    EngineChecks.checkWithinPiece(
        this, offset, length, "segment", index, (index + 1) * segmentSize);
    return index;
  }

  @Override
  public void sync() {}

  @Override
  public String description() {
    return "heap";
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "HeapIOEngine[" + capacity + " bytes in " + segments.length + " segments]";
  }
}
