package dev.cellar.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One size class of a {@link BufAllocator}: up to a maximum count of off-heap buffers of one fixed
 * size, each identified by a slot number, handed out whole or as a prefix and taken back when the
 * last reference to them is released.
 *
 * <p><b>Memory.</b> Buffers are carved from one long-lived shared {@link Arena}, in slabs of about
 * 2 MiB (at least one buffer per slab; a huge page each where the system offers them, {@link
 * HugePageMemory}) created lazily as demand grows, up to the maximum count; they are never freed
 * before {@link #close()}, which frees them all at once. No arena is ever created or closed per
 * buffer.
 *
 * <p><b>Concurrency.</b> Free buffers are slot numbers on lock-free stacks striped by thread
 * ({@link StripedFreeSlots}), so taking and returning a buffer cost one CAS each on the calling
 * thread's stack. Creating a slab is the only locked step. A slot's segment is written to {@code
 * slots} before the slot is pushed, and the push's CAS publishes it to the thread that pops it. The
 * first time the pool runs out is logged once. Thread-safe.
 */
final class BufferPool implements Recycler, ReusableSlots.Owner {

  private static final Logger LOG = LoggerFactory.getLogger(BufferPool.class);

  /** Buffers are created in slabs of about this many bytes (at least one buffer per slab). */
  private static final long SLAB_BYTES = 2L * 1024 * 1024;

  private final int bufferSize;
  private final int buffersPerSlab;
  private final String description;
  private final MemorySegment[] slots;

  /**
   * A {@link ByteBuffer} over each slot's whole buffer, made with the slot: its holder reads
   * through it without a view object per read ({@link #soleHolderView}).
   */
  private final ByteBuffer[] views;

  /** Each slot's reusable buffer ({@link #allocateReusable}) and what its users attached. */
  private final ReusableSlots reusable;

  private final StripedFreeSlots free;
  private final Object slabLock = new Object();
  private final LongAdder inUse = new LongAdder();
  private final LongAdder allocatedBytes = new LongAdder();
  private final AtomicBoolean exhaustionLogged = new AtomicBoolean();

  /** Guarded by slabLock; read racily only for statistics. */
  private volatile int created;

  /** Created on the first slab; guarded by slabLock. */
  private Arena arena;

  private volatile boolean closed;

  /**
   * A pool of at most {@code maxCount} buffers of {@code bufferSize} bytes, none created yet; a
   * {@code maxCount} of 0 makes a pool that is off (its buffer size may then be 0).
   */
  BufferPool(int bufferSize, int maxCount) {
    this.bufferSize = bufferSize;
    this.buffersPerSlab = (int) Math.max(1, SLAB_BYTES / Math.max(1, bufferSize));
    this.description = "pooled buffer of " + bufferSize + " bytes";
    this.slots = new MemorySegment[maxCount];
    this.views = new ByteBuffer[maxCount];
    this.reusable = new ReusableSlots(maxCount);
    this.free = new StripedFreeSlots(maxCount, StripedFreeSlots.defaultStripes());
  }

  int bufferSize() {
    return bufferSize;
  }

  /** True if the pool may hold buffers at all (its maximum count is above zero). */
  boolean isEnabled() {
    return slots.length > 0;
  }

  /**
   * A free slot, creating a slab if none is free; -1 when the pool is exhausted. The caller owns
   * the slot until it passes it to {@link #recycle} (directly or through a buffer's count).
   */
  int take() {
    if (closed) {
      throw new IllegalStateException("allocator is closed");
    }
    int slot = free.pop();
    if (slot < 0) {
      slot = growAndTake();
      if (slot < 0) {
        if (exhaustionLogged.compareAndSet(false, true)) {
          LOG.info(
              "all {} pooled buffers of {} bytes are in use; further allocations of this size"
                  + " come from the heap until buffers are released",
              slots.length,
              bufferSize);
        }
        return -1;
      }
    }
    inUse.increment();
    return slot;
  }

  /** The first {@code size} bytes of slot {@code slot}'s buffer, counted as allocated. */
  MemorySegment segment(int slot, int size) {
    allocatedBytes.add(size);
    return size == bufferSize ? slots[slot] : slots[slot].asSlice(0, size);
  }

  /**
   * A buffer of the first {@code size} bytes of a newly taken slot, holding one reference whose
   * last release returns the slot; null when the pool is exhausted.
   */
  Buf allocate(int size) {
    int slot = take();
    return slot < 0
        ? null
        : new SingleSegmentBuf(RefCnt.pooled(this, slot, description), segment(slot, size));
  }

  /**
   * A whole free buffer as the slot's reusable buffer, revived (see {@link
   * RecycledHeapArrays#reusableSource()} for the rule its holders keep); null if none is free.
   */
  Buf allocateReusable() {
    int slot = take();
    if (slot < 0) {
      return null;
    }
    Buf kept = reusable.revive(slot, description);
    return kept != null
        ? kept
        : reusable.keep(
            slot, new SingleSegmentBuf(RefCnt.pooled(this, slot, description), slots[slot]));
  }

  @Override
  public ReusableSlots reusableSlots() {
    return reusable;
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
      MemorySegment slab = HugePageMemory.allocate(arena, (long) count * bufferSize);
      int first = created;
      for (int i = 0; i < count; i++) {
        slots[first + i] = slab.asSlice((long) i * bufferSize, bufferSize);
        views[first + i] = slots[first + i].asByteBuffer();
      }
      for (int i = count - 1; i >= 1; i--) {
        free.push(first + i);
      }
      created = first + count;
      return first;
    }
  }

  /**
   * The view of slot {@code slot}'s whole buffer when {@code segment} starts at the slot's start,
   * else null. The view is the slot's for good: only the sole holder of the slot's buffer may set
   * its position and limit (see {@link Buf#soleHolderView()}).
   */
  ByteBuffer soleHolderView(int slot, MemorySegment segment) {
    MemorySegment whole = slots[slot];
    return whole != null && segment.address() == whole.address() ? views[slot] : null;
  }

  /** Returns slot {@code token} to the free stacks (called by a buffer's last release). */
  @Override
  public void recycle(int token) {
    reusable.freed(token);
    inUse.decrement();
    free.push(token);
  }

  /** Buffers currently taken. */
  long inUse() {
    return inUse.sum();
  }

  /** Counters since creation, read without a common lock. */
  BufferPoolStats stats() {
    return new BufferPoolStats(
        bufferSize, slots.length, created, (int) inUse.sum(), allocatedBytes.sum());
  }

  /**
   * Frees the pool's memory. Every buffer must have been returned: closing with buffers in use
   * throws and frees nothing, since their holders could still read the memory.
   */
  void close() {
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
}
