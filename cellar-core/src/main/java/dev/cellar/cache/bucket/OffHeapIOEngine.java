package dev.cellar.cache.bucket;

import dev.cellar.memory.Buf;
import dev.cellar.memory.OffHeapRegion;
import dev.cellar.memory.RefCnt;
import java.lang.foreign.MemorySegment;

/**
 * The {@code offheap} engine: the whole capacity as one off-heap {@link MemorySegment}, shared with
 * readers through zero-copy views.
 *
 * <p><b>Memory.</b> One {@link OffHeapRegion} (one long-lived shared arena) allocated at
 * construction and freed by {@link #close()}; no chunking, so every range is a plain slice of one
 * segment and every view is single-segment. A view does not own memory: it carries the cached
 * entry's {@link RefCnt}, which decides when the cache may reuse the range, and becomes invalid
 * when the engine is closed. Not persistent.
 *
 * <p><b>Concurrency.</b> No state beyond the segment: disjoint ranges may be read, written and
 * viewed from any thread at once. {@link #close()} must not race other calls; an access after it
 * throws {@link IllegalStateException}.
 */
public final class OffHeapIOEngine implements IOEngine {

  private final OffHeapRegion region;
  private final MemorySegment memory;

  /** Allocates {@code capacity} zeroed bytes off heap. */
  public OffHeapIOEngine(long capacity) {
    this.region = OffHeapRegion.allocate(capacity);
    this.memory = region.segment();
  }

  @Override
  public long capacity() {
    return memory.byteSize();
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
    EngineChecks.checkRange(this, offset, length);
    src.getBytes(srcIndex, memory, offset, length);
  }

  @Override
  public void read(long offset, Buf dst, int dstIndex, int length) {
    EngineChecks.checkRange(this, offset, length);
    dst.putBytes(dstIndex, memory, offset, length);
  }

  @Override
  public Buf view(long offset, int length, RefCnt refCnt) {
    EngineChecks.checkRange(this, offset, length);
    return Buf.wrap(memory.asSlice(offset, length), refCnt);
  }

  @Override
  public void sync() {}

  @Override
  public String description() {
    return "offheap";
  }

  @Override
  public void close() {
    region.close();
  }

  @Override
  public String toString() {
    return "OffHeapIOEngine[" + capacity() + " bytes]";
  }
}
