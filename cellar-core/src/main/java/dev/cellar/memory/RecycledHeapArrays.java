package dev.cellar.memory;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Heap arrays that an on-heap cache copies blocks into and gets back when the last reference to a
 * copy is released, so that a cache churning through blocks (a working set larger than the cache)
 * reuses the arrays of the blocks it evicted instead of allocating a new one per miss and leaving
 * the old one to the garbage collector.
 *
 * <p><b>Size classes.</b> Arrays come in classes of {@link #GRANULE} bytes, from {@link
 * #MIN_POOLED} to {@link #MAX_POOLED}; a copy of {@code n} bytes takes an array of the smallest
 * class that holds it, so a 64 KiB block of a given family keeps finding arrays of its own class.
 * Smaller and larger copies get an exact-size array of their own, as do copies made once the pool
 * has created arrays worth its byte budget (set by the cache to what it may hold, so in steady
 * state the cache's own blocks are the budget). A block read straight into the pool takes a whole
 * array ({@link #takeAtLeastRetained}), sparing the view of its first bytes.
 *
 * <p><b>Reusable buffers.</b> A block read for one reader and cached nowhere (a miss the cache
 * leaves out) takes its array through {@link #reusableSource()}: the slot's buffer object and its
 * count are made at the slot's first such take and handed out anew (revived) at each later one,
 * with what the previous user attached to the slot (its block object, {@link SlotAttachment}), so
 * such a read allocates nothing. This is sound because a holder of a released buffer never retains
 * it again but by the generation it knew ({@link RefCnt#tryRetain(int)}: a revived count starts a
 * new one), as a cache's lookup does; a plain retain could revive another block's memory for it.
 * Buffers taken otherwise get a count of their own.
 *
 * <p><b>Memory.</b> Arrays are created lazily and kept for the pool's life (they leave with it to
 * the garbage collector); each class has a slot table and free-slot stacks sized by the budget over
 * its array size, created on the class's first use. A buffer handed out covers the first {@code n}
 * bytes of its array; {@link #arrayLength(Buf)} tells the cache how much it really holds. Losing a
 * buffer without releasing it loses its array to the garbage collector, nothing worse: heap memory
 * needs no leak tracking.
 *
 * <p><b>Concurrency.</b> Taking and returning an array are a pop and a push on lock-free stacks
 * ({@link StripedFreeSlots}); creating an array is a CAS on the budget and a slot number from an
 * atomic counter. A slot's array is written before its slot is published by a push, as in {@link
 * BufferPool}. Recycling runs on the thread of the last release. Thread-safe, allocation-free when
 * a free array exists.
 */
public final class RecycledHeapArrays implements BufSource {

  /** Size class granularity, bytes. */
  public static final int GRANULE = 512;

  /** Copies smaller than this get an exact array: small blocks rarely churn. */
  public static final int MIN_POOLED = 16 * 1024;

  /** Copies larger than this get an exact array. */
  public static final int MAX_POOLED = 1024 * 1024;

  private final long budgetBytes;
  private final AtomicLong createdBytes = new AtomicLong();
  private final AtomicReferenceArray<SizeClass> classes =
      new AtomicReferenceArray<>(MAX_POOLED / GRANULE + 1);
  private final LongAdder recycledCopies = new LongAdder();
  private final LongAdder freshCopies = new LongAdder();

  /** A pool that creates arrays worth at most {@code budgetBytes} in all. */
  public RecycledHeapArrays(long budgetBytes) {
    if (budgetBytes < 0) {
      throw new IllegalArgumentException("budget must not be negative, was " + budgetBytes);
    }
    this.budgetBytes = budgetBytes;
  }

  /**
   * A heap copy of {@code source}'s bytes holding one reference for the caller, over a recycled
   * array when one of its class is free or the budget allows a new one, else over an exact-size
   * array of its own.
   */
  public Buf copyRetained(Buf source) {
    int length = source.capacity();
    Buf copy = takeRetained(length);
    source.copyTo(0, copy, 0, length);
    return copy;
  }

  /**
   * A heap buffer of {@code capacity} bytes to fill, holding one reference for the caller: over a
   * recycled array as for {@link #copyRetained}, its bytes left as the array's last holder wrote
   * them.
   */
  @Override
  public Buf takeRetained(int capacity) {
    return take(capacity, false);
  }

  /**
   * As {@link #takeRetained}, over the whole recycled array when one is taken (its length rounded
   * up to the size class), with no view of its first bytes to make.
   */
  @Override
  public Buf takeAtLeastRetained(int capacity) {
    return take(capacity, true);
  }

  /**
   * Takes whole arrays as reusable buffers (see the class comment), for blocks read for one reader
   * or kept by a cache that looks them up by generation: each slot's buffer object is handed out
   * anew with the slot.
   */
  public BufSource reusableSource() {
    return reusableTakes;
  }

  private final BufSource reusableTakes =
      new BufSource() {
        /** An exact buffer is a part of an array, with a count of its own. */
        @Override
        public Buf takeRetained(int capacity) {
          return take(capacity, Take.PART);
        }

        @Override
        public Buf takeAtLeastRetained(int capacity) {
          return take(capacity, Take.REUSABLE);
        }
      };

  /** How a buffer is taken: a view of the array's first bytes, the whole array, or reusable. */
  private enum Take {
    PART,
    WHOLE,
    REUSABLE
  }

  private Buf take(int capacity, boolean whole) {
    return take(capacity, whole ? Take.WHOLE : Take.PART);
  }

  private Buf take(int capacity, Take how) {
    Buf taken = capacity < MIN_POOLED || capacity > MAX_POOLED ? null : pooled(capacity, how);
    if (taken == null) {
      freshCopies.increment();
      return Buf.wrap(new byte[capacity]);
    }
    recycledCopies.increment();
    return taken;
  }

  /** The length of the heap array behind {@code buf}, which may exceed its capacity. */
  public static int arrayLength(Buf buf) {
    if (buf.isSingleSegment() && buf.segment().heapBase().orElse(null) instanceof byte[] array) {
      return array.length;
    }
    return buf.capacity();
  }

  /** Buffers (copies or taken) that reused or created a pooled array since creation. */
  public long recycledCopies() {
    return recycledCopies.sum();
  }

  /** Buffers (copies or taken) given an array of their own (size out of range, budget spent). */
  public long freshCopies() {
    return freshCopies.sum();
  }

  /** Bytes of pooled arrays created so far. */
  public long createdBytes() {
    return createdBytes.get();
  }

  private Buf pooled(int length, Take how) {
    int index = (length + GRANULE - 1) / GRANULE;
    SizeClass sizeClass = classes.get(index);
    if (sizeClass == null) {
      int arrayLength = index * GRANULE;
      int maxCount = (int) Math.min(Integer.MAX_VALUE - 8, budgetBytes / arrayLength);
      if (maxCount == 0) {
        return null;
      }
      classes.compareAndSet(index, null, new SizeClass(arrayLength, maxCount));
      sizeClass = classes.get(index);
    }
    return sizeClass.take(how == Take.PART ? length : sizeClass.arrayLength, how == Take.REUSABLE);
  }

  /** The arrays of one length: a slot table, free-slot stacks and the count of slots numbered. */
  private final class SizeClass implements Recycler, ReusableSlots.Owner {

    private final int arrayLength;

    /** Each slot's array as a whole segment, made once: a take slices it, allocating one view. */
    private final MemorySegment[] slots;

    /** Each slot's reusable buffer and what its users attached. */
    private final ReusableSlots reusable;

    private final StripedFreeSlots free;
    private final AtomicLong numbered = new AtomicLong();

    SizeClass(int arrayLength, int maxCount) {
      this.arrayLength = arrayLength;
      this.slots = new MemorySegment[maxCount];
      this.reusable = new ReusableSlots(maxCount);
      this.free = new StripedFreeSlots(maxCount, StripedFreeSlots.defaultStripes());
    }

    /**
     * A buffer over the first {@code length} bytes of a free or new array, or the slot's reusable
     * buffer revived; null if none.
     */
    Buf take(int length, boolean reuse) {
      int slot = free.pop();
      if (slot < 0) {
        slot = create();
        if (slot < 0) {
          return null;
        }
      }
      MemorySegment whole = slots[slot];
      if (reuse) {
        Buf kept = reusable.revive(slot, null);
        return kept != null
            ? kept
            : reusable.keep(slot, Buf.wrap(whole, RefCnt.recycling(this, slot)));
      }
      MemorySegment segment = length == arrayLength ? whole : whole.asSlice(0, length);
      return Buf.wrap(segment, RefCnt.recycling(this, slot));
    }

    @Override
    public ReusableSlots reusableSlots() {
      return reusable;
    }

    private int create() {
      long before = createdBytes.getAndAdd(arrayLength);
      if (before + arrayLength > budgetBytes) {
        createdBytes.getAndAdd(-arrayLength);
        return -1;
      }
      long slot = numbered.getAndIncrement();
      if (slot >= slots.length) {
        createdBytes.getAndAdd(-arrayLength);
        return -1;
      }
      slots[(int) slot] = MemorySegment.ofArray(new byte[arrayLength]);
      return (int) slot;
    }

    @Override
    public void recycle(int token) {
      reusable.freed(token);
      free.push(token);
    }
  }
}
