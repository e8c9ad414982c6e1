package dev.cellar.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out {@link Buf}s from a pool of fixed-size off-heap buffers, falling back to the heap, with
 * the semantics of HBase's ByteBuffAllocator.
 *
 * <p><b>Policy.</b> {@code allocate(size)}: with the pool disabled, or for a size of zero or below
 * the minimal allocate size, the buffer comes from the heap. Otherwise pooled buffers are taken
 * while the remaining size is at least the minimal size, and the tail, possibly all of it when the
 * pool is exhausted, comes from the heap. One piece gives a {@link SingleSegmentBuf}, several a
 * {@link CompositeBuf}; only the pooled pieces go back to the pool on release. Heap bytes and pooled
 * bytes are counted, and the first fallback caused by exhaustion is logged.
 *
 * <p><b>Memory.</b> Pooled buffers are carved from one long-lived shared {@link Arena}, in slabs of
 * about 2 MiB created lazily as demand grows, up to the maximum count; they are never freed before
 * {@link #close()}, which frees them all at once. No arena is ever created or closed per buffer.
 *
 * <p><b>Concurrency.</b> Free buffers are slot numbers on lock-free stacks striped by thread
 * ({@link StripedFreeSlots}), so an allocation and a release cost one CAS each on the calling
 * thread's stack, which other cores rarely touch, plus one on the buffer's count, and
 * allocate nothing on the heap beyond the returned {@link Buf} and its {@link RefCnt}. Creating a
 * slab is the only locked step. A slot's segment is written to {@code slots} before the slot is
 * pushed, and the push's CAS publishes it to the thread that pops it. Thread-safe.
 */
public final class BufAllocator implements Recycler, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BufAllocator.class);

  /** Buffers are created in slabs of about this many bytes (at least one buffer per slab). */
  private static final long SLAB_BYTES = 2L * 1024 * 1024;

  private static final String POOLED = "pooled buffer";

  /** A heap-only allocator, for callers that have no pool (HBase's {@code ByteBuffAllocator.HEAP}). */
  public static final BufAllocator HEAP =
      new BufAllocator(new BufAllocatorConfig(false, BufAllocatorConfig.DEFAULT_BUFFER_SIZE, 0, 0));

  private final BufAllocatorConfig config;
  private final int bufferSize;
  private final int minSize;
  private final int buffersPerSlab;
  private final MemorySegment[] slots;
  private final StripedFreeSlots free;
  private final Object slabLock = new Object();
  private final LongAdder heapBytes = new LongAdder();
  private final LongAdder poolBytes = new LongAdder();
  private final LongAdder heapAllocations = new LongAdder();
  private final LongAdder inUse = new LongAdder();
  private final AtomicBoolean exhaustionLogged = new AtomicBoolean();
  private final Object ratioLock = new Object();
  private long lastRatioHeapBytes;
  private long lastRatioPoolBytes;

  /** Guarded by slabLock; read racily only for statistics. */
  private volatile int created;
  /** Created on the first slab; guarded by slabLock. */
  private Arena arena;
  private volatile boolean closed;

  public BufAllocator(BufAllocatorConfig config) {
    this.config = config;
    this.bufferSize = config.bufferSize();
    this.minSize = config.minimalAllocateSize();
    int count = config.poolEnabled() ? config.maxBufferCount() : 0;
    this.slots = new MemorySegment[count];
    this.free = new StripedFreeSlots(count, StripedFreeSlots.defaultStripes());
    this.buffersPerSlab = (int) Math.max(1, SLAB_BYTES / bufferSize);
  }

  public BufAllocatorConfig config() {
    return config;
  }

  /**
   * A buffer of exactly {@code size} bytes, holding one reference the caller must release. Its
   * contents are unspecified (pooled memory is reused as it is).
   */
  public Buf allocate(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("allocation size must be >= 0, was " + size);
    }
    if (slots.length == 0 || size == 0 || size < minSize) {
      return heap(size);
    }
    if (size <= bufferSize) {
      return allocateContiguous(size);
    }
    return allocateLarge(size);
  }

  /**
   * A single-segment buffer of exactly {@code size} bytes for short-lived data that must be
   * contiguous: a block being read, checked and decompressed, whose cells are then read in place.
   * Up to one pool buffer it is pooled whatever its size (the minimal allocate size, which keeps
   * small long-lived allocations off the pool, does not apply); larger requests, and requests when
   * the pool is exhausted, come from the heap and are counted, instead of being split into a
   * composite buffer.
   */
  public Buf allocateContiguous(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("allocation size must be >= 0, was " + size);
    }
    if (slots.length == 0 || size == 0 || size > bufferSize) {
      return heap(size);
    }
    int slot = take();
    if (slot < 0) {
      return heap(size);
    }
    poolBytes.add(size);
    MemorySegment segment = size == bufferSize ? slots[slot] : slots[slot].asSlice(0, size);
    return new SingleSegmentBuf(RefCnt.pooled(this, slot, POOLED), segment);
  }

  /** A whole pooled buffer ({@code bufferSize} bytes), or a heap one if the pool is exhausted. */
  public Buf allocateOneBuffer() {
    return slots.length == 0 ? heap(bufferSize) : allocate(bufferSize);
  }

  private Buf allocateLarge(int size) {
    int maxPieces = size / bufferSize + 2;
    MemorySegment[] pieces = new MemorySegment[maxPieces];
    int[] taken = new int[maxPieces];
    int count = 0;
    int remaining = size;
    while (remaining >= minSize && remaining > 0) {
      int slot = take();
      if (slot < 0) {
        break;
      }
      int piece = Math.min(remaining, bufferSize);
      pieces[count] = piece == bufferSize ? slots[slot] : slots[slot].asSlice(0, piece);
      taken[count++] = slot;
      remaining -= piece;
    }
    if (count == 0) {
      return heap(size);
    }
    poolBytes.add(size - remaining);
    int pooledPieces = count;
    if (remaining > 0) {
      pieces[count++] = heapSegment(remaining);
    }
    MemorySegment[] exact = Arrays.copyOf(pieces, count);
    RefCnt refCnt = pooledPieces == 1
        ? RefCnt.pooled(this, taken[0], POOLED)
        : RefCnt.pooled(new SlotsRecycler(this, Arrays.copyOf(taken, pooledPieces)), 0, POOLED);
    return Buf.wrap(exact, refCnt);
  }

  private Buf heap(int size) {
    return new SingleSegmentBuf(RefCnt.unpooled(), heapSegment(size));
  }

  private MemorySegment heapSegment(int size) {
    heapBytes.add(size);
    heapAllocations.increment();
    return MemorySegment.ofArray(new byte[size]);
  }

  /** Pops a free slot, creating a slab if the stack is empty; -1 when the pool is exhausted. */
  private int take() {
    if (closed) {
      throw new IllegalStateException("allocator is closed");
    }
    int slot = free.pop();
    if (slot < 0) {
      slot = growAndTake();
      if (slot < 0) {
        if (exhaustionLogged.compareAndSet(false, true)) {
          LOG.info("all {} pooled buffers of {} bytes are in use; further allocations come from the"
              + " heap until buffers are released", slots.length, bufferSize);
        }
        return -1;
      }
    }
    inUse.increment();
    return slot;
  }

  private int growAndTake() {
    synchronized (slabLock) {
      if (closed) {
        throw new IllegalStateException("allocator is closed");
      }
      int slot = free.pop();
      if (slot >= 0 || created == slots.length) {
        return slot;
      }
      if (arena == null) {
        arena = Arena.ofShared();
      }
      int count = Math.min(buffersPerSlab, slots.length - created);
      MemorySegment slab = arena.allocate((long) count * bufferSize, Long.BYTES);
      int first = created;
      for (int i = 0; i < count; i++) {
        slots[first + i] = slab.asSlice((long) i * bufferSize, bufferSize);
      }
      for (int i = count - 1; i >= 1; i--) {
        free.push(first + i);
      }
      created = first + count;
      return first;
    }
  }

  /** Returns pooled slot {@code token} to the free stack (called by a buffer's last release). */
  @Override
  public void recycle(int token) {
    inUse.decrement();
    free.push(token);
  }

  /** Counters since creation. Thread-safe; the fields are read without a common lock. */
  public BufAllocatorStats stats() {
    return new BufAllocatorStats(heapBytes.sum(), poolBytes.sum(), heapAllocations.sum(), created,
        (int) inUse.sum(), slots.length, bufferSize);
  }

  /**
   * Heap bytes over all bytes allocated since the previous call of this method (HBase's
   * getHeapAllocationRatio), 0 when nothing was allocated in between.
   */
  public double heapAllocationRatioSinceLastCall() {
    synchronized (ratioLock) {
      long heap = heapBytes.sum();
      long pool = poolBytes.sum();
      long heapDelta = heap - lastRatioHeapBytes;
      long poolDelta = pool - lastRatioPoolBytes;
      lastRatioHeapBytes = heap;
      lastRatioPoolBytes = pool;
      long total = heapDelta + poolDelta;
      return total == 0 ? 0 : (double) heapDelta / total;
    }
  }

  /**
   * Frees all pooled memory. Every pooled buffer must have been released: closing with buffers in
   * use throws and frees nothing, since their holders could still read the memory.
   */
  @Override
  public void close() {
    if (this == HEAP) {
      throw new IllegalStateException("the shared heap allocator cannot be closed");
    }
    synchronized (slabLock) {
      if (closed) {
        return;
      }
      long used = inUse.sum();
      if (used != 0) {
        throw new IllegalStateException(
            "cannot close the allocator: " + used + " pooled buffers are still in use");
      }
      closed = true;
      if (arena != null) {
        arena.close();
      }
    }
  }

  /** Returns several pooled slots at once, for a buffer made of several pooled pieces. */
  private record SlotsRecycler(BufAllocator allocator, int[] slots) implements Recycler {
    @Override
    public void recycle(int token) {
      for (int slot : slots) {
        allocator.recycle(slot);
      }
    }
  }
}
