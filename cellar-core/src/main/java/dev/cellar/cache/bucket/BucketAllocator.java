package dev.cellar.cache.bucket;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * Hands out the byte ranges of a {@link BucketCache}'s engine, with the semantics of HBase's
 * BucketAllocator.
 *
 * <p><b>Layout.</b> The engine space is cut into equal buckets of 4 times the largest size; a
 * partial bucket at the end is not used. Each bucket serves one size class at a time and is cut
 * into slots of that class's item size; the tail of a bucket shorter than one slot is wasted. A
 * block takes a slot of the smallest class that fits it, so ranges never overlap and never cross a
 * bucket boundary, and every offset is a multiple of 256 (all sizes are). At construction bucket
 * {@code i} serves class {@code i} and every further bucket serves the largest class, as HBase's
 * BucketAllocator does.
 *
 * <p><b>Allocation.</b> Each class keeps two insertion-ordered {@link BucketLists}: buckets with a
 * free slot, and completely free buckets (no used slot; these are on the first list too). A block
 * goes to the most recently added bucket of its class with a free slot. If there is none, the
 * oldest completely free bucket of another class is stolen, classes scanned smallest first, and
 * reconfigured for the new class. As in HBase, a class keeps its last bucket while any other class
 * can spare one; unlike HBase, when none can, the last, empty bucket of a class is stolen too,
 * rather than failing the allocation: with HBase's fifteen default sizes, fourteen empty buckets
 * (9% of a 300 MiB cache) would otherwise sit idle while the one size a family's blocks take
 * evicts. A class left without a bucket is <em>starved</em> once an allocation for it fails, and
 * counts among the classes without a free slot (and the bytes to free) until it gets a bucket
 * again; one that never asks costs nothing. If no bucket can be stolen the cache is full: {@link
 * #allocate} returns -1 and the caller frees space, as HBase's CacheFullException asks it to. Only
 * completely free buckets change class, so a cache whose classes filled unevenly stays calcified
 * until the caller frees whole buckets ({@link #usedSlots}, {@link #sizeClassesWithoutFreeSlots}).
 * Allocating, freeing, and reading a counter cost O(1); stealing and the statistics scan the
 * classes once. Reconfiguring a stolen bucket allocates its slot arrays, once per steal.
 *
 * <p><b>Restore.</b> {@link #restore} rebuilds the allocator from the (offset, length) pairs of a
 * persisted index: each bucket takes the class of the first entry accepted in it and later entries
 * must agree. The buckets left empty go, in order, one each to the classes without a bucket
 * (smallest first), then to the largest class, so every class has a bucket if there are enough.
 * Unlike HBase, which resets the whole cache on a class conflict, a bad entry is rejected alone.
 *
 * <p><b>Concurrency.</b> Allocations come from the cache's writer threads and frees from whichever
 * thread releases a block's last reference. Every piece of mutable state (the buckets, the lists,
 * the class counters, the used totals) is guarded by this object's monitor: each method that reads
 * or writes it is {@code synchronized}, and none blocks or calls out while holding it. The geometry
 * ({@link #bucketCapacity}, {@link #bucketCount}, {@link #totalSize}, {@link #roundUp}, {@link
 * #bucketIndex}) is final and read without the lock.
 */
public final class BucketAllocator {

  /** Slots of the largest size per bucket: the bucket capacity is this times the largest size. */
  private static final int FEWEST_ITEMS_IN_BUCKET = 4;

  private static final int ALIGNMENT = 256;

  private final int[] sizes;
  private final long bucketCapacity;
  private final Bucket[] buckets;
  private final SizeClass[] classes;
  private final BucketLists withFreeSlots;
  private final BucketLists completelyFree;
  private final boolean[] starved;
  private long usedSize;
  private long usedCount;

  /**
   * An empty allocator over {@code capacity} bytes with the given slot sizes.
   *
   * @throws IllegalArgumentException if the sizes are not ascending positive multiples of 256, or
   *     if the capacity holds fewer buckets than there are sizes
   */
  public BucketAllocator(long capacity, int[] bucketSizes) {
    this(capacity, bucketSizes, new long[0], new int[0], new BitSet());
  }

  private BucketAllocator(
      long capacity, int[] bucketSizes, long[] offsets, int[] lengths, BitSet accepted) {
    sizes = checkedSizes(bucketSizes);
    bucketCapacity = (long) FEWEST_ITEMS_IN_BUCKET * sizes[sizes.length - 1];
    buckets = new Bucket[checkedBucketCount(capacity, sizes, bucketCapacity)];
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = new Bucket(i, bucketCapacity);
    }
    classes = new SizeClass[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      classes[i] = new SizeClass(i, sizes[i], bucketCapacity);
    }
    withFreeSlots = new BucketLists(buckets.length, sizes.length);
    completelyFree = new BucketLists(buckets.length, sizes.length);
    starved = new boolean[sizes.length];
    for (int i = 0; i < offsets.length; i++) {
      accepted.set(i, claim(offsets[i], lengths[i]));
    }
    assignUnconfiguredBuckets();
  }

  /**
   * Rebuilds an allocator whose used slots are the given (offset, length) pairs, as after a restart
   * from a persisted index. An entry is rejected, not thrown, if its length fits no class (or is
   * below 1), its offset lies beyond the last whole bucket, its bucket already serves another class
   * (the class of the first accepted entry wins), its offset is not the start of a slot of its
   * class, or its slot is already claimed. Bit {@code i} of {@code accepted} is set if entry {@code
   * i} was accepted and cleared otherwise.
   *
   * @throws IllegalArgumentException as the constructor, or if the arrays differ in length
   */
  public static BucketAllocator restore(
      long capacity, int[] bucketSizes, long[] offsets, int[] lengths, BitSet accepted) {
    if (offsets.length != lengths.length) {
      throw new IllegalArgumentException(
          "restore got " + offsets.length + " offsets but " + lengths.length + " lengths");
    }
    Objects.requireNonNull(accepted, "accepted");
    return new BucketAllocator(capacity, bucketSizes, offsets, lengths, accepted);
  }

  private static int[] checkedSizes(int[] bucketSizes) {
    int[] sizes = bucketSizes.clone();
    if (sizes.length == 0) {
      throw new IllegalArgumentException("bucket sizes must not be empty");
    }
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] <= 0 || sizes[i] % ALIGNMENT != 0 || (i > 0 && sizes[i] <= sizes[i - 1])) {
        throw new IllegalArgumentException(
            "bucket sizes must be ascending positive multiples of "
                + ALIGNMENT
                + ", "
                + Arrays.toString(sizes)
                + " are not");
      }
    }
    return sizes;
  }

  private static int checkedBucketCount(long capacity, int[] sizes, long bucketCapacity) {
    long count = capacity / bucketCapacity;
    if (count < sizes.length) {
      throw new IllegalArgumentException(
          "a bucket cache capacity of "
              + capacity
              + " bytes is too small for bucket sizes "
              + Arrays.toString(sizes)
              + ": it needs one "
              + "bucket of "
              + bucketCapacity
              + " bytes ("
              + FEWEST_ITEMS_IN_BUCKET
              + " x the largest size) per size, a minimum of "
              + sizes.length * bucketCapacity
              + " bytes");
    }
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a bucket cache capacity of "
              + capacity
              + " bytes needs more than "
              + Integer.MAX_VALUE
              + " buckets of "
              + bucketCapacity
              + " bytes; use larger bucket sizes");
    }
    return (int) count;
  }

  /** The size of every bucket: 4 times the largest size. */
  public long bucketCapacity() {
    return bucketCapacity;
  }

  public int bucketCount() {
    return buckets.length;
  }

  /** {@code bucketCount() * bucketCapacity()}: the engine space actually used. */
  public long totalSize() {
    return buckets.length * bucketCapacity;
  }

  /**
   * The slot size a block of {@code length} bytes would take, or -1 if it exceeds the largest size.
   *
   * @throws IllegalArgumentException if {@code length < 1}
   */
  public int roundUp(int length) {
    int sizeClass = sizeClassOf(length);
    return sizeClass < 0 ? -1 : sizes[sizeClass];
  }

  /**
   * Allocates a slot for a block of {@code length} bytes and returns its offset, or -1 if the cache
   * is full: the block's class has no free slot and no completely free bucket can be stolen.
   *
   * @throws IllegalArgumentException if {@code length} is below 1 or above the largest size
   */
  public synchronized long allocate(int length) {
    int sizeClass = sizeClassOf(length);
    if (sizeClass < 0) {
      throw new IllegalArgumentException(
          "cannot allocate "
              + length
              + " bytes: the largest bucket size is "
              + sizes[sizes.length - 1]);
    }
    int index = withFreeSlots.last(sizeClass);
    if (index == BucketLists.NONE) {
      index = stealCompletelyFreeBucket(sizeClass);
      if (index == BucketLists.NONE) {
        starved[sizeClass] = classes[sizeClass].bucketCount() == 0;
        return -1;
      }
      adopt(classes[sizeClass], buckets[index]);
      starved[sizeClass] = false;
    }
    Bucket bucket = buckets[index];
    long offset = bucket.allocate();
    slotTaken(bucket, length);
    return offset;
  }

  /**
   * Frees the slot at {@code offset}, allocated for a block of {@code length} bytes, and returns
   * the slot size. A bucket left without a used slot becomes completely free and may move to
   * another class.
   *
   * @throws IllegalStateException if no used slot starts at {@code offset} (a double free, or an
   *     offset the allocator never handed out)
   * @throws IllegalArgumentException if {@code length} does not belong to the slot's size class
   */
  public synchronized int free(long offset, int length) {
    if (offset < 0 || offset >= totalSize()) {
      throw new IllegalStateException(
          "cannot free offset "
              + offset
              + ": it is outside the allocator's "
              + totalSize()
              + " bytes");
    }
    Bucket bucket = buckets[(int) (offset / bucketCapacity)];
    int slot = bucket.slotAt(offset);
    if (slot < 0) {
      throw new IllegalStateException(
          "cannot free offset "
              + offset
              + ": no slot of bucket "
              + bucket.index()
              + " (base "
              + bucket.baseOffset()
              + ", slot size "
              + bucket.itemSize()
              + ") starts there");
    }
    if (!bucket.isUsed(slot)) {
      throw new IllegalStateException(
          "cannot free offset "
              + offset
              + ": its slot in bucket "
              + bucket.index()
              + " is not in use (freed twice?)");
    }
    int sizeClass = bucket.sizeClass();
    if (length < 1 || sizeClassOf(length) != sizeClass) {
      throw new IllegalArgumentException(
          "cannot free offset "
              + offset
              + " as "
              + length
              + " bytes: its slot of "
              + bucket.itemSize()
              + " bytes holds blocks of "
              + (sizeClass == 0 ? 1 : sizes[sizeClass - 1] + 1)
              + " to "
              + bucket.itemSize()
              + " bytes");
    }
    boolean wasFull = bucket.freeCount() == 0;
    bucket.free(slot);
    if (wasFull) {
      withFreeSlots.addLast(sizeClass, bucket.index());
    }
    if (bucket.isCompletelyFree()) {
      completelyFree.addLast(sizeClass, bucket.index());
    }
    classes[sizeClass].slotReturned(length, wasFull);
    usedSize -= bucket.itemSize();
    usedCount--;
    return bucket.itemSize();
  }

  /** The sum of the sizes of the used slots. */
  public synchronized long usedSize() {
    return usedSize;
  }

  /** {@code totalSize() - usedSize()}. */
  public synchronized long freeSize() {
    return totalSize() - usedSize;
  }

  /** The number of used slots. */
  public synchronized long usedCount() {
    return usedCount;
  }

  /**
   * The bucket holding {@code offset}.
   *
   * @throws IllegalArgumentException if {@code offset} is outside {@code [0, totalSize())}
   */
  public int bucketIndex(long offset) {
    if (offset < 0 || offset >= totalSize()) {
      throw new IllegalArgumentException(
          "offset " + offset + " is outside the allocator's " + totalSize() + " bytes");
    }
    return (int) (offset / bucketCapacity);
  }

  /** The slot size of the bucket holding {@code offset}. */
  public synchronized int slotSize(long offset) {
    return buckets[bucketIndex(offset)].itemSize();
  }

  /** The used slots of one bucket. */
  public synchronized int usedSlots(int bucketIndex) {
    return buckets[Objects.checkIndex(bucketIndex, buckets.length)].usedCount();
  }

  /** The slots of one bucket, used or not. */
  public synchronized int totalSlots(int bucketIndex) {
    return buckets[Objects.checkIndex(bucketIndex, buckets.length)].slotCount();
  }

  /** A snapshot of every size class, smallest first. */
  public synchronized List<SizeClassStats> sizeClassStats() {
    SizeClassStats[] stats = new SizeClassStats[classes.length];
    for (SizeClass sizeClass : classes) {
      stats[sizeClass.index()] = sizeClass.stats(completelyFree.size(sizeClass.index()));
    }
    return List.of(stats);
  }

  /**
   * The number of size classes without a free slot. HBase's bucket cache frees twice this many
   * whole buckets after each freeing run, so that calcified classes get buckets back.
   */
  public synchronized int sizeClassesWithoutFreeSlots() {
    int count = 0;
    for (SizeClass sizeClass : classes) {
      if (sizeClass.bucketCount() > 0 ? sizeClass.freeSlots() == 0 : starved[sizeClass.index()]) {
        count++;
      }
    }
    return count;
  }

  /**
   * Whether class {@code sizeClass} has no bucket and an allocation for it failed since it last had
   * one: it needs a whole bucket freed.
   */
  public synchronized boolean starved(int sizeClass) {
    return starved[Objects.checkIndex(sizeClass, classes.length)];
  }

  /** The smallest class whose size is at least {@code length}, or -1 if none. */
  private int sizeClassOf(int length) {
    if (length < 1) {
      throw new IllegalArgumentException("a block length must be at least 1, got " + length);
    }
    int found = Arrays.binarySearch(sizes, length);
    int sizeClass = found >= 0 ? found : -found - 1;
    return sizeClass < sizes.length ? sizeClass : -1;
  }

  /**
   * Unlinks the oldest completely free bucket of the first class other than {@code taker} that can
   * spare one: one with another bucket if any, else the last bucket of a class.
   */
  private int stealCompletelyFreeBucket(int taker) {
    for (int fewestLeft = 1; fewestLeft >= 0; fewestLeft--) {
      for (SizeClass donor : classes) {
        int index = completelyFree.first(donor.index());
        if (index != BucketLists.NONE
            && donor.index() != taker
            && donor.bucketCount() > fewestLeft) {
          withFreeSlots.remove(index);
          completelyFree.remove(index);
          donor.bucketRemoved();
          return index;
        }
      }
    }
    return BucketLists.NONE;
  }

  /** Configures an unlinked bucket for {@code sizeClass} and links it as completely free. */
  private void adopt(SizeClass sizeClass, Bucket bucket) {
    bucket.configure(sizeClass.index(), sizeClass.itemSize());
    sizeClass.bucketAdded();
    withFreeSlots.addLast(sizeClass.index(), bucket.index());
    completelyFree.addLast(sizeClass.index(), bucket.index());
  }

  /** Accounts for a slot of {@code bucket} just taken for a block of {@code length} bytes. */
  private void slotTaken(Bucket bucket, int length) {
    if (bucket.usedCount() == 1) {
      completelyFree.remove(bucket.index());
    }
    boolean full = bucket.freeCount() == 0;
    if (full) {
      withFreeSlots.remove(bucket.index());
    }
    classes[bucket.sizeClass()].slotTaken(length, full);
    usedSize += bucket.itemSize();
    usedCount++;
  }

  /** Claims the slot of one persisted entry (see {@link #restore}); false if it is rejected. */
  private boolean claim(long offset, int length) {
    if (length < 1 || offset < 0 || offset >= totalSize()) {
      return false;
    }
    int sizeClass = sizeClassOf(length);
    if (sizeClass < 0) {
      return false;
    }
    Bucket bucket = buckets[(int) (offset / bucketCapacity)];
    if (bucket.sizeClass() >= 0 && bucket.sizeClass() != sizeClass) {
      return false;
    }
    int itemSize = sizes[sizeClass];
    long relative = offset - bucket.baseOffset();
    if (relative % itemSize != 0 || relative / itemSize >= bucketCapacity / itemSize) {
      return false;
    }
    if (bucket.sizeClass() < 0) {
      adopt(classes[sizeClass], bucket);
    }
    if (!bucket.claim(bucket.slotAt(offset))) {
      return false;
    }
    slotTaken(bucket, length);
    return true;
  }

  /**
   * Gives each bucket no entry configured, in order, to the smallest class that has no bucket yet,
   * and once every class has one, to the largest class.
   */
  private void assignUnconfiguredBuckets() {
    int needy = 0;
    for (Bucket bucket : buckets) {
      if (bucket.sizeClass() >= 0) {
        continue;
      }
      while (needy < classes.length && classes[needy].bucketCount() > 0) {
        needy++;
      }
      adopt(classes[Math.min(needy, classes.length - 1)], bucket);
    }
  }
}
