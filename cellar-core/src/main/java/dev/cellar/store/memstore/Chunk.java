package dev.cellar.store.memstore;

import dev.cellar.memory.Buf;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One fixed-size piece of memory that an MSLAB fills with cells by bumping a pointer (HBase's
 * {@code Chunk}).
 *
 * <p><b>Concurrency.</b> Many writers allocate from the same chunk at once: {@link #allocate}
 * reserves a range with one compare-and-set on the next free offset, so ranges never overlap and
 * each writer then copies into its own range without further coordination. The offset only grows;
 * once a request does not fit, the chunk stays full for that size and the MSLAB moves on.
 *
 * <p><b>Memory.</b> The chunk holds one reference on its {@link Buf} (a pooled off-heap buffer, or
 * a heap one when the pool is exhausted); {@link #release()} drops it, which returns pooled memory
 * to the {@link ChunkPool}. The owning MSLAB decides when: only after no reader can reach its
 * cells.
 */
final class Chunk {

  private static final VarHandle NEXT_FREE;

  static {
    try {
      NEXT_FREE = MethodHandles.lookup().findVarHandle(Chunk.class, "nextFree", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Buf memory;
  private final MemorySegment segment;
  private int nextFree;

  /** Takes over the caller's reference on {@code memory}. */
  Chunk(Buf memory) {
    this.memory = memory;
    this.segment = memory.segment();
  }

  /**
   * Reserves {@code size} bytes.
   *
   * @return the offset of the reserved range in {@link #segment()}, or -1 if it does not fit
   */
  int allocate(int size) {
    for (; ; ) {
      int offset = (int) NEXT_FREE.getAcquire(this);
      if ((long) offset + size > segment.byteSize()) {
        return -1;
      }
      if (NEXT_FREE.compareAndSet(this, offset, offset + size)) {
        return offset;
      }
    }
  }

  /** The chunk's memory; readable until {@link #release()}. */
  MemorySegment segment() {
    return segment;
  }

  /** True if the chunk is off-heap (pooled); false for a heap chunk made when the pool ran out. */
  boolean isDirect() {
    return segment.isNative();
  }

  /** Bytes reserved so far. */
  int used() {
    return (int) NEXT_FREE.getVolatile(this);
  }

  /** Drops the chunk's reference; pooled memory goes back to the pool. */
  void release() {
    memory.release();
  }
}
