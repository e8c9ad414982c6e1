package dev.cellar.cache.bucket;

/**
 * A snapshot of one size class of a {@link BucketAllocator}, the figures HBase's bucket cache frees
 * space by (its per-class index statistics).
 *
 * @param itemSize the slot size of the class in bytes
 * @param bucketCount buckets serving the class
 * @param totalSlots slots of those buckets
 * @param usedSlots slots holding a block
 * @param freeSlots {@code totalSlots - usedSlots}
 * @param usedBytes {@code usedSlots * itemSize}
 * @param freeBytes {@code freeSlots * itemSize}
 * @param wastedBytes the tail of each bucket too short for a slot ({@code bucketCapacity %
 *     itemSize}), counted over the buckets that hold at least one block
 * @param fragmentationBytes slot size minus block length, summed over used slots
 * @param fullBuckets buckets without a free slot
 * @param completelyFreeBuckets buckets without a used slot, which may move to another class
 */
public record SizeClassStats(
    int itemSize,
    int bucketCount,
    long totalSlots,
    long usedSlots,
    long freeSlots,
    long usedBytes,
    long freeBytes,
    long wastedBytes,
    long fragmentationBytes,
    int fullBuckets,
    int completelyFreeBuckets) {}
