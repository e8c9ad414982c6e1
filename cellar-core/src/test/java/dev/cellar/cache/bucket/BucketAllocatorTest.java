package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The allocator's rules one at a time, mostly on the default sizes (HBase's and 68 KiB) over 1 GiB:
 * 511 buckets of 2,101,248 bytes, bucket {@code i < 14} serving size {@code i} and the other 497
 * the largest.
 */
class BucketAllocatorTest {

  static final int[] SIZES = BucketCacheConfig.DEFAULT_BUCKET_SIZES;
  static final long GIB = 1L << 30;

  /** 4 x 525312, the largest default size. */
  static final long BUCKET = 2_101_248;

  /** floor(1 GiB / BUCKET). */
  static final int BUCKETS = 511;

  static final int SMALLEST = 5120;
  static final int LARGEST = 525_312;

  /** Slots of the smallest default size per bucket. */
  static final int SMALLEST_SLOTS = 410;

  /** Slots of the second default size (9216) per bucket. */
  static final int SECOND_SLOTS = 228;

  private final BucketAllocator allocator = new BucketAllocator(GIB, SIZES);

  @Test
  void defaultSizesOverOneGibibyteGiveOneBucketPerClassAndTheRestToTheLargest() {
    assertEquals(BUCKET, allocator.bucketCapacity());
    assertEquals(BUCKETS, allocator.bucketCount());
    assertEquals(BUCKETS * BUCKET, allocator.totalSize());
    assertEquals(allocator.totalSize(), allocator.freeSize());
    assertEquals(0, allocator.usedSize());
    assertEquals(0, allocator.usedCount());
    List<SizeClassStats> stats = allocator.sizeClassStats();
    assertEquals(SIZES.length, stats.size());
    for (int i = 0; i < SIZES.length; i++) {
      SizeClassStats s = stats.get(i);
      int buckets = i < SIZES.length - 1 ? 1 : BUCKETS - (SIZES.length - 1);
      long slots = buckets * (BUCKET / SIZES[i]);
      assertEquals(
          new SizeClassStats(
              SIZES[i], buckets, slots, 0, slots, 0, slots * SIZES[i], 0, 0, 0, buckets),
          s,
          "class " + i);
      assertEquals(SIZES[i], allocator.slotSize(Math.min(i, BUCKETS - 1) * BUCKET));
    }
    assertEquals(SMALLEST_SLOTS, allocator.totalSlots(0));
    assertEquals(SECOND_SLOTS, allocator.totalSlots(1));
    assertEquals(4, allocator.totalSlots(BUCKETS - 1));
    assertEquals(0, allocator.sizeClassesWithoutFreeSlots());
  }

  @Test
  void roundUpTakesTheSmallestSizeThatFits() {
    assertEquals(SMALLEST, allocator.roundUp(1));
    assertEquals(SMALLEST, allocator.roundUp(SMALLEST));
    assertEquals(9216, allocator.roundUp(SMALLEST + 1));
    assertEquals(66560, allocator.roundUp(65536));
    assertEquals(69632, allocator.roundUp(66560 + 1), "a block just over 65 KiB takes 68, not 97");
    assertEquals(99328, allocator.roundUp(69632 + 1));
    assertEquals(LARGEST, allocator.roundUp(LARGEST));
    assertEquals(-1, allocator.roundUp(LARGEST + 1));
    assertEquals(-1, allocator.roundUp(Integer.MAX_VALUE));
    assertThrows(IllegalArgumentException.class, () -> allocator.roundUp(0));
  }

  @Test
  void allocateRejectsLengthsOutsideTheClasses() {
    assertThrows(IllegalArgumentException.class, () -> allocator.allocate(0));
    assertThrows(IllegalArgumentException.class, () -> allocator.allocate(-5));
    IllegalArgumentException tooBig =
        assertThrows(IllegalArgumentException.class, () -> allocator.allocate(LARGEST + 1));
    assertTrue(tooBig.getMessage().contains(String.valueOf(LARGEST)), tooBig.getMessage());
  }

  @Test
  void allocationsComeFromTheirClassBucketAndAreSlotAligned() {
    assertEquals(0, allocator.allocate(100));
    assertEquals(SMALLEST, allocator.allocate(SMALLEST));
    assertEquals(BUCKET, allocator.allocate(SMALLEST + 1));
    assertEquals((BUCKETS - 1) * BUCKET, allocator.allocate(LARGEST));
    assertEquals((BUCKETS - 1) * BUCKET + LARGEST, allocator.allocate(400_000));
    assertEquals(0, allocator.bucketIndex(SMALLEST));
    assertEquals(1, allocator.bucketIndex(BUCKET));
    assertEquals(BUCKETS - 1, allocator.bucketIndex(allocator.totalSize() - 1));
    assertEquals(9216, allocator.slotSize(BUCKET));
    assertEquals(2, allocator.usedSlots(0));
    assertEquals(1, allocator.usedSlots(1));
    assertEquals(2, allocator.usedSlots(BUCKETS - 1));
    assertThrows(IllegalArgumentException.class, () -> allocator.bucketIndex(-1));
    long end = allocator.totalSize();
    assertThrows(IllegalArgumentException.class, () -> allocator.bucketIndex(end));
    assertThrows(IndexOutOfBoundsException.class, () -> allocator.usedSlots(BUCKETS));
    assertThrows(IndexOutOfBoundsException.class, () -> allocator.totalSlots(-1));
  }

  @Test
  void allocateAndFreeRoundTripRestoresEveryFigureExactly() {
    List<SizeClassStats> baseline = allocator.sizeClassStats();
    int[] lengths = {1, 4096, SMALLEST, SMALLEST + 1, 65536, 66560, 66561, 200_000, LARGEST};
    List<long[]> live = new ArrayList<>();
    long slotBytes = 0;
    long fragmentation = 0;
    for (int round = 0; round < 3; round++) {
      for (int length : lengths) {
        long offset = allocator.allocate(length);
        assertTrue(offset >= 0 && offset % 256 == 0, "offset " + offset);
        assertEquals(allocator.roundUp(length), allocator.slotSize(offset));
        live.add(new long[] {offset, length});
        slotBytes += allocator.roundUp(length);
        fragmentation += allocator.roundUp(length) - length;
      }
    }
    assertEquals(slotBytes, allocator.usedSize());
    assertEquals(allocator.totalSize() - slotBytes, allocator.freeSize());
    assertEquals(live.size(), allocator.usedCount());
    assertEquals(
        fragmentation,
        allocator.sizeClassStats().stream().mapToLong(SizeClassStats::fragmentationBytes).sum());
    assertEquals(
        3 * ((SMALLEST - 1) + (SMALLEST - 4096)),
        allocator.sizeClassStats().get(0).fragmentationBytes());
    for (long[] entry : live) {
      assertEquals(allocator.roundUp((int) entry[1]), allocator.free(entry[0], (int) entry[1]));
    }
    assertEquals(0, allocator.usedSize());
    assertEquals(0, allocator.usedCount());
    assertEquals(allocator.totalSize(), allocator.freeSize());
    assertEquals(baseline, allocator.sizeClassStats());
  }

  @Test
  void wastedBytesCountTheTailOfBucketsHoldingData() {
    long offset = allocator.allocate(1);
    SizeClassStats smallest = allocator.sizeClassStats().get(0);
    assertEquals(BUCKET - SMALLEST_SLOTS * SMALLEST, smallest.wastedBytes());
    assertEquals(SMALLEST - 1, smallest.fragmentationBytes());
    assertEquals(0, smallest.completelyFreeBuckets());
    allocator.free(offset, 1);
    assertEquals(0, allocator.sizeClassStats().get(0).wastedBytes());
  }

  @Test
  void aClassThatRunsOutStealsTheOldestCompletelyFreeBucketOfTheSmallestClassThatCanSpareOne() {
    fillClassZeroBucket();
    assertEquals(1, allocator.sizeClassStats().get(0).fullBuckets());
    assertEquals(1, allocator.sizeClassesWithoutFreeSlots());

    int firstLargestBucket = SIZES.length - 1;
    long stolen = allocator.allocate(SMALLEST);
    assertEquals(firstLargestBucket * BUCKET, stolen);
    assertEquals(SMALLEST, allocator.slotSize(stolen));
    assertEquals(SMALLEST_SLOTS, allocator.totalSlots(firstLargestBucket));
    assertEquals(1, allocator.usedSlots(firstLargestBucket));
    List<SizeClassStats> stats = allocator.sizeClassStats();
    assertEquals(2, stats.get(0).bucketCount());
    assertEquals(BUCKETS - SIZES.length, stats.get(SIZES.length - 1).bucketCount());
    assertEquals(0, allocator.sizeClassesWithoutFreeSlots());
  }

  @Test
  void aBucketLeftWithoutUsedSlotsCanMoveToAnotherClass() {
    fillClassZeroBucket();
    int movingBucket = SIZES.length - 1;
    long stolen = allocator.allocate(SMALLEST);
    allocator.free(stolen, SMALLEST);
    assertEquals(1, allocator.sizeClassStats().get(0).completelyFreeBuckets());

    for (int i = 0; i < SECOND_SLOTS; i++) {
      assertEquals(BUCKET + (long) i * 9216, allocator.allocate(9216));
    }
    long moved = allocator.allocate(9216);
    assertEquals(movingBucket * BUCKET, moved);
    assertEquals(9216, allocator.slotSize(moved));
    assertEquals(SECOND_SLOTS, allocator.totalSlots(movingBucket));
    List<SizeClassStats> stats = allocator.sizeClassStats();
    assertEquals(1, stats.get(0).bucketCount());
    assertEquals(2, stats.get(1).bucketCount());
  }

  @Test
  void aClassPrefersItsMostRecentlyAddedBucketWithFreeSlots() {
    fillClassZeroBucket();
    int stolenBucket = SIZES.length - 1;
    assertEquals(stolenBucket * BUCKET, allocator.allocate(SMALLEST));
    assertEquals(stolenBucket * BUCKET + SMALLEST, allocator.allocate(SMALLEST));
    allocator.free(7L * SMALLEST, SMALLEST);
    assertEquals(7L * SMALLEST, allocator.allocate(SMALLEST));
    assertEquals(stolenBucket * BUCKET + 2 * SMALLEST, allocator.allocate(SMALLEST));
  }

  @Test
  void aClassGivesUpItsLastEmptyBucketOnlyWhenNoOtherClassCanSpareOne() {
    // Buckets 0, 1 and 2 serve 256, 512 and 1024 bytes, bucket 3 the largest class too.
    BucketAllocator small = new BucketAllocator(4 * 4096, new int[] {256, 512, 1024});
    List<Long> secondBucket = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      long offset = small.allocate(200);
      int bucket = i / 16;
      long expectedBase = new long[] {0, 2 * 4096, 4096, 3 * 4096}[bucket];
      assertEquals(expectedBase + (i % 16) * 256L, offset, "allocation " + i);
      if (bucket == 2) {
        secondBucket.add(offset);
      }
    }
    assertEquals(-1, small.allocate(200));
    List<SizeClassStats> stats = small.sizeClassStats();
    assertEquals(4, stats.get(0).bucketCount());
    assertEquals(0, stats.get(1).bucketCount());
    assertEquals(0, stats.get(2).bucketCount());
    assertEquals(1, small.sizeClassesWithoutFreeSlots(), "classes that never asked need nothing");
    assertFalse(small.starved(1));

    assertEquals(-1, small.allocate(512));
    assertTrue(small.starved(1));
    assertFalse(small.starved(2));
    assertEquals(2, small.sizeClassesWithoutFreeSlots());

    for (long offset : secondBucket) {
      small.free(offset, 200);
    }
    assertEquals(4096, small.allocate(512));
    assertFalse(small.starved(1));
    assertEquals(1, small.sizeClassStats().get(1).bucketCount());
    assertEquals(1, small.sizeClassesWithoutFreeSlots());
  }

  @Test
  void aFullCacheReturnsMinusOneUntilSomethingIsFreed() {
    int largestBuckets = BUCKETS - (SIZES.length - 1);
    long last = -1;
    for (int i = 0; i < largestBuckets * 4; i++) {
      last = allocator.allocate(LARGEST);
      assertTrue(last >= 0, "allocation " + i);
    }
    for (int i = 0; i < (SIZES.length - 1) * 4; i++) {
      long offset = allocator.allocate(LARGEST);
      assertEquals(
          (i / 4) * BUCKET + (i % 4) * LARGEST,
          offset,
          "the empty last bucket of each smaller class, smallest first; allocation " + i);
    }
    assertEquals(-1, allocator.allocate(LARGEST));
    assertEquals(-1, allocator.allocate(400_000));
    assertEquals(1, allocator.sizeClassesWithoutFreeSlots());
    assertEquals(-1, allocator.allocate(1));
    assertEquals(2, allocator.sizeClassesWithoutFreeSlots());
    assertEquals(LARGEST, allocator.free(last, LARGEST));
    assertEquals(last, allocator.allocate(LARGEST));
  }

  @Test
  void freeingTwiceThrows() {
    long offset = allocator.allocate(3000);
    allocator.free(offset, 3000);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> allocator.free(offset, 3000));
    assertTrue(e.getMessage().contains("not in use"), e.getMessage());
    assertEquals(0, allocator.usedSize());
  }

  @Test
  void freeingAnOffsetThatStartsNoUsedSlotThrows() {
    long used = allocator.allocate(3000);
    assertThrows(IllegalStateException.class, () -> allocator.free(used + 256, 3000));
    assertThrows(IllegalStateException.class, () -> allocator.free(used + SMALLEST, 3000));
    assertThrows(
        IllegalStateException.class, () -> allocator.free(SMALLEST_SLOTS * SMALLEST, 3000));
    assertThrows(IllegalStateException.class, () -> allocator.free(-256, 3000));
    assertThrows(IllegalStateException.class, () -> allocator.free(allocator.totalSize(), 3000));
    assertEquals(1, allocator.usedCount());
    assertEquals(SMALLEST, allocator.usedSize());
  }

  @Test
  void freeingWithALengthOfAnotherClassThrows() {
    long offset = allocator.allocate(3000);
    assertThrows(IllegalArgumentException.class, () -> allocator.free(offset, SMALLEST + 1));
    assertThrows(IllegalArgumentException.class, () -> allocator.free(offset, 0));
    assertEquals(1, allocator.usedCount());
    assertEquals(SMALLEST, allocator.free(offset, 3000));
  }

  @Test
  void aCapacityBelowOneBucketPerSizeNamesTheMinimum() {
    long minimum = SIZES.length * BUCKET;
    assertEquals(SIZES.length, new BucketAllocator(minimum, SIZES).bucketCount());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(minimum - 1, SIZES));
    assertTrue(e.getMessage().contains(String.valueOf(minimum)), e.getMessage());
    assertTrue(e.getMessage().contains(String.valueOf(minimum - 1)), e.getMessage());
    assertTrue(e.getMessage().contains(String.valueOf(LARGEST)), e.getMessage());
  }

  @Test
  void badSizesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(GIB, new int[0]));
    assertThrows(
        IllegalArgumentException.class, () -> new BucketAllocator(GIB, new int[] {1024, 512}));
    assertThrows(
        IllegalArgumentException.class, () -> new BucketAllocator(GIB, new int[] {512, 512}));
    assertThrows(
        IllegalArgumentException.class, () -> new BucketAllocator(GIB, new int[] {1000, 2048}));
    assertThrows(
        IllegalArgumentException.class, () -> new BucketAllocator(GIB, new int[] {0, 2048}));
  }

  private void fillClassZeroBucket() {
    for (int i = 0; i < SMALLEST_SLOTS; i++) {
      assertEquals((long) i * SMALLEST, allocator.allocate(SMALLEST));
    }
  }
}
