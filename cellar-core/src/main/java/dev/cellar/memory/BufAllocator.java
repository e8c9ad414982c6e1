package dev.cellar.memory;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hands out {@link Buf}s from pools of fixed-size off-heap buffers, falling back to the heap, with
 * the semantics of HBase's ByteBuffAllocator plus one size class of Cellar's own.
 *
 * <p><b>Size classes.</b> HBase's pool holds buffers of {@link BufAllocatorConfig#bufferSize()}. A
 * second pool holds buffers of {@link BufAllocatorConfig#largeBufferSize()} for blocks that
 * overshoot a buffer by a cell or so (see {@link BufAllocatorConfig}); without it, each such block
 * would be read onto the heap. Each pool is a {@link BufferPool} with its own shared arena, free
 * stacks and counters.
 *
 * <p><b>Policy.</b> {@code allocate(size)}: with the pool disabled, or for a size of zero or below
 * the minimal allocate size, the buffer comes from the heap. Up to the buffer size it is one pooled
 * buffer (or heap memory when the pool is exhausted). Above that and up to the large size it is one
 * large buffer when one is free. Otherwise, as in HBase, pooled buffers are taken while the
 * remaining size is at least the minimal size, and the tail, possibly all of it when the pool is
 * exhausted, comes from the heap. One piece gives a {@link SingleSegmentBuf}, several a {@link
 * CompositeBuf}; only the pooled pieces go back to their pool on release. {@code
 * allocateContiguous(size)} never splits: one buffer of the smallest class that holds the size, or
 * the heap. Heap bytes and pooled bytes are counted, and each pool logs the first time it runs out.
 *
 * <p><b>Concurrency.</b> An allocation or a release costs one CAS on the calling thread's free
 * stack of its pool plus one on the buffer's count, and allocates nothing on the heap beyond the
 * returned {@link Buf} and its {@link RefCnt}. Thread-safe.
 */
public final class BufAllocator implements AutoCloseable {

  /**
   * A heap-only allocator, for callers that have no pool (HBase's {@code ByteBuffAllocator.HEAP}).
   */
  public static final BufAllocator HEAP =
      new BufAllocator(new BufAllocatorConfig(false, BufAllocatorConfig.DEFAULT_BUFFER_SIZE, 0, 0));

  private static final String COMPOSITE = "pooled composite buffer";

  private final BufAllocatorConfig config;
  private final int bufferSize;
  private final int largeBufferSize;
  private final int minSize;
  private final BufferPool buffers;
  private final BufferPool largeBuffers;
  private final LongAdder heapBytes = new LongAdder();
  private final LongAdder heapAllocations = new LongAdder();
  private final Object ratioLock = new Object();
  private long lastRatioHeapBytes;
  private long lastRatioPoolBytes;

  public BufAllocator(BufAllocatorConfig config) {
    this.config = config;
    this.bufferSize = config.bufferSize();
    this.minSize = config.minimalAllocateSize();
    boolean enabled = config.poolEnabled();
    this.buffers = new BufferPool(bufferSize, enabled ? config.maxBufferCount() : 0);
    boolean large = enabled && config.largeBufferSize() > 0;
    this.largeBufferSize = large ? config.largeBufferSize() : 0;
    this.largeBuffers =
        new BufferPool(config.largeBufferSize(), large ? config.largeMaxBufferCount() : 0);
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
    if (!buffers.isEnabled() || size == 0 || size < minSize) {
      return heap(size);
    }
    if (size <= bufferSize) {
      return allocateContiguous(size);
    }
    Buf large = size <= largeBufferSize ? largeBuffers.allocate(size) : null;
    return large != null ? large : allocateComposite(size);
  }

  /**
   * A single-segment buffer of exactly {@code size} bytes for short-lived data that must be
   * contiguous: a block being read, checked and decompressed, whose cells are then read in place.
   * It is the first {@code size} bytes of a buffer of the smallest pooled class that holds it,
   * whatever its size (the minimal allocate size, which keeps small long-lived allocations off the
   * pool, does not apply). Larger requests, and requests when that class is exhausted, come from
   * the heap and are counted, instead of being split into a composite buffer.
   */
  public Buf allocateContiguous(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("allocation size must be >= 0, was " + size);
    }
    BufferPool pool =
        size == 0
            ? null
            : size <= bufferSize ? buffers : size <= largeBufferSize ? largeBuffers : null;
    Buf pooled = pool != null && pool.isEnabled() ? pool.allocate(size) : null;
    return pooled != null ? pooled : heap(size);
  }

  /**
   * Takes whole pooled buffers as reusable ones, for blocks read for one reader that no cache
   * keeps: a slot's buffer object and count are made once and handed out anew with the slot, with
   * what its last user attached (see {@link RecycledHeapArrays#reusableSource()}, whose rule their
   * holders keep: none retains such a buffer again after its release but by the generation it knew,
   * {@link RefCnt#tryRetain(int)}). Sizes no pool holds come from the heap, as for {@link
   * #allocateContiguousAtLeast}; an exact take is a plain contiguous allocation.
   */
  public BufSource reusableSource() {
    return reusableTakes;
  }

  private final BufSource reusableTakes =
      new BufSource() {
        @Override
        public Buf takeRetained(int capacity) {
          return allocateContiguous(capacity);
        }

        @Override
        public Buf takeAtLeastRetained(int capacity) {
          return allocateReusableAtLeast(capacity);
        }
      };

  private Buf allocateReusableAtLeast(int size) {
    int room = contiguousRoomFor(size);
    BufferPool pool = room == bufferSize ? buffers : room == largeBufferSize ? largeBuffers : null;
    if (size == 0 || pool == null || !pool.isEnabled()) {
      return allocateContiguousAtLeast(size);
    }
    Buf pooled = pool.allocateReusable();
    return pooled != null ? pooled : heap(size);
  }

  /**
   * A contiguous buffer of at least {@code size} bytes: a whole pooled buffer of the class that
   * holds {@code size} (the pool keeps a view of each, so none is made), or a heap buffer of
   * exactly {@code size} when the pool has none.
   */
  public Buf allocateContiguousAtLeast(int size) {
    int room = contiguousRoomFor(size);
    if (room == size || size == 0) {
      return allocateContiguous(size);
    }
    BufferPool pool = room == bufferSize ? buffers : largeBuffers;
    Buf pooled = pool.isEnabled() ? pool.allocate(room) : null;
    return pooled != null ? pooled : heap(size);
  }

  /**
   * The bytes a contiguous allocation of {@code size} may grow to while taking the same memory: the
   * size of its pooled class (the buffer size, or the large size above it), or {@code size} itself
   * above every class. A reader uses it to read ahead into room it is given anyway.
   */
  public int contiguousRoomFor(int size) {
    if (size <= config.bufferSize()) {
      return config.bufferSize();
    }
    return size <= config.largeBufferSize() ? config.largeBufferSize() : size;
  }

  /** A whole pooled buffer ({@code bufferSize} bytes), or a heap one if the pool is exhausted. */
  public Buf allocateOneBuffer() {
    return buffers.isEnabled() ? allocate(bufferSize) : heap(bufferSize);
  }

  /** HBase's policy for a size above every class it has room in: buffers plus a heap tail. */
  private Buf allocateComposite(int size) {
    int maxPieces = size / bufferSize + 2;
    MemorySegment[] pieces = new MemorySegment[maxPieces];
    int[] taken = new int[maxPieces];
    int count = 0;
    int remaining = size;
    while (remaining >= minSize && remaining > 0) {
      int slot = buffers.take();
      if (slot < 0) {
        break;
      }
      int piece = Math.min(remaining, bufferSize);
      pieces[count] = buffers.segment(slot, piece);
      taken[count++] = slot;
      remaining -= piece;
    }
    if (count == 0) {
      return heap(size);
    }
    int pooledPieces = count;
    if (remaining > 0) {
      pieces[count++] = heapSegment(remaining);
    }
    MemorySegment[] exact = Arrays.copyOf(pieces, count);
    RefCnt refCnt =
        pooledPieces == 1
            ? RefCnt.pooled(buffers, taken[0], COMPOSITE)
            : RefCnt.pooled(
                new SlotsRecycler(buffers, Arrays.copyOf(taken, pooledPieces)), 0, COMPOSITE);
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

  /** Counters since creation. Thread-safe; the fields are read without a common lock. */
  public BufAllocatorStats stats() {
    return new BufAllocatorStats(
        heapBytes.sum(), heapAllocations.sum(), buffers.stats(), largeBuffers.stats());
  }

  /**
   * Heap bytes over all bytes allocated since the previous call of this method (HBase's
   * getHeapAllocationRatio), 0 when nothing was allocated in between.
   */
  public double heapAllocationRatioSinceLastCall() {
    synchronized (ratioLock) {
      long heap = heapBytes.sum();
      long pool = stats().poolAllocationBytes();
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
    long used = buffers.inUse() + largeBuffers.inUse();
    if (used != 0) {
      throw new IllegalStateException(
          "cannot close the allocator: " + used + " pooled buffers are still in use");
    }
    buffers.close();
    largeBuffers.close();
  }

  /** Returns several pooled slots at once, for a buffer made of several pooled pieces. */
  private record SlotsRecycler(BufferPool pool, int[] slots) implements Recycler {
    @Override
    public void recycle(int token) {
      for (int slot : slots) {
        pool.recycle(slot);
      }
    }
  }
}
