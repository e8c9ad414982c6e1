package dev.cellar.cache.bucket;

/**
 * The counters of one size class of a {@link BucketAllocator}: how many buckets serve it, how many
 * of their slots are used, how many buckets are full, and the fragmentation (slot size minus block
 * length, summed over used slots). They are updated on every change, so {@link #stats} costs O(1)
 * instead of a walk over the class's buckets.
 *
 * <p>Not thread-safe: the allocator guards it with its own lock.
 */
final class SizeClass {

  private final int index;
  private final int itemSize;
  private final int slotsPerBucket;
  private final long wastePerBucket;
  private int bucketCount;
  private long usedSlots;
  private int fullBuckets;
  private long fragmentationBytes;

  SizeClass(int index, int itemSize, long bucketCapacity) {
    this.index = index;
    this.itemSize = itemSize;
    this.slotsPerBucket = (int) (bucketCapacity / itemSize);
    this.wastePerBucket = bucketCapacity % itemSize;
  }

  int index() {
    return index;
  }

  int itemSize() {
    return itemSize;
  }

  int bucketCount() {
    return bucketCount;
  }

  long freeSlots() {
    return (long) bucketCount * slotsPerBucket - usedSlots;
  }

  /** A completely free bucket joined the class. */
  void bucketAdded() {
    bucketCount++;
  }

  /** A completely free bucket left the class. */
  void bucketRemoved() {
    bucketCount--;
  }

  /** A slot was taken for a {@code length}-byte block; {@code bucketFull} if it was the last. */
  void slotTaken(int length, boolean bucketFull) {
    usedSlots++;
    fragmentationBytes += itemSize - length;
    if (bucketFull) {
      fullBuckets++;
    }
  }

  /** A slot holding {@code length} bytes was returned; {@code bucketWasFull} if none was free. */
  void slotReturned(int length, boolean bucketWasFull) {
    usedSlots--;
    fragmentationBytes -= itemSize - length;
    if (bucketWasFull) {
      fullBuckets--;
    }
  }

  /**
   * A snapshot of the counters. As HBase's BucketAllocator does, wasted bytes count the unusable
   * tail of each bucket that holds data, not of completely free buckets, which may yet move to
   * another class.
   */
  SizeClassStats stats(int completelyFreeBuckets) {
    long totalSlots = (long) bucketCount * slotsPerBucket;
    long freeSlots = totalSlots - usedSlots;
    return new SizeClassStats(
        itemSize,
        bucketCount,
        totalSlots,
        usedSlots,
        freeSlots,
        usedSlots * itemSize,
        freeSlots * itemSize,
        wastePerBucket * (bucketCount - completelyFreeBuckets),
        fragmentationBytes,
        fullBuckets,
        completelyFreeBuckets);
  }
}
