package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a test has allocated (offset to block length) and the checks a {@link BucketAllocator} must
 * pass against it: live slots never overlap nor cross a bucket boundary, and every total, bucket
 * figure and size-class statistic agrees with a recount from the live set. Every assertion message
 * starts with the context the test gave, which names the run.
 */
final class AllocatorOracle {

  private final String context;
  private final TreeMap<Long, Integer> live = new TreeMap<>();
  private final List<Long> offsets = new ArrayList<>();

  /** Slot sizes without a bucket whose allocation failed since they last had one. */
  private final Set<Integer> starved = new HashSet<>();

  AllocatorOracle(String context) {
    this.context = context;
  }

  int size() {
    return live.size();
  }

  Map<Long, Integer> live() {
    return live;
  }

  void allocated(BucketAllocator allocator, long offset, int length) {
    assertNull(live.put(offset, length), context + ": offset " + offset + " handed out twice");
    starved.remove(allocator.roundUp(length));
    offsets.add(offset);
  }

  /** Frees a random live entry in {@code allocator} and checks the returned slot size. */
  void freeRandom(BucketAllocator allocator, Random random) {
    int at = random.nextInt(offsets.size());
    long offset = offsets.get(at);
    offsets.set(at, offsets.getLast());
    offsets.removeLast();
    int length = live.remove(offset);
    assertEquals(
        allocator.roundUp(length),
        allocator.free(offset, length),
        context + ": slot size freed at " + offset);
  }

  void freeAll(BucketAllocator allocator, Random random) {
    while (!offsets.isEmpty()) {
      freeRandom(allocator, random);
    }
  }

  void check(BucketAllocator allocator) {
    long bucketCapacity = allocator.bucketCapacity();
    int[] usedPerBucket = new int[allocator.bucketCount()];
    long usedBytes = 0;
    long previousEnd = 0;
    TreeMap<Integer, Long> fragmentation = new TreeMap<>();
    for (Map.Entry<Long, Integer> entry : live.entrySet()) {
      long offset = entry.getKey();
      int length = entry.getValue();
      int slot = allocator.slotSize(offset);
      String where = context + ": offset " + offset + " length " + length;
      assertEquals(allocator.roundUp(length), slot, where);
      assertEquals(0, offset % 256, where);
      assertEquals(0, offset % bucketCapacity % slot, where + " is not slot aligned");
      assertTrue(offset % bucketCapacity + slot <= bucketCapacity, where + " crosses its bucket");
      assertTrue(offset >= previousEnd, where + " overlaps the slot before it");
      previousEnd = offset + slot;
      usedPerBucket[allocator.bucketIndex(offset)]++;
      usedBytes += slot;
      fragmentation.merge(slot, (long) slot - length, Long::sum);
    }
    assertEquals(live.size(), allocator.usedCount(), context + ": used count");
    assertEquals(usedBytes, allocator.usedSize(), context + ": used size");
    assertEquals(allocator.totalSize() - usedBytes, allocator.freeSize(), context + ": free size");

    List<SizeClassStats> stats = allocator.sizeClassStats();
    int withoutFreeSlots = 0;
    int bucketsSeen = 0;
    for (SizeClassStats s : stats) {
      int item = s.itemSize();
      int buckets = 0;
      long used = 0;
      int full = 0;
      int empty = 0;
      for (int b = 0; b < usedPerBucket.length; b++) {
        if (allocator.slotSize(b * bucketCapacity) != item) {
          continue;
        }
        int slots = (int) (bucketCapacity / item);
        assertEquals(slots, allocator.totalSlots(b), context + ": slots of bucket " + b);
        assertEquals(usedPerBucket[b], allocator.usedSlots(b), context + ": used in bucket " + b);
        buckets++;
        used += usedPerBucket[b];
        full += usedPerBucket[b] == slots ? 1 : 0;
        empty += usedPerBucket[b] == 0 ? 1 : 0;
      }
      long total = buckets * (bucketCapacity / item);
      SizeClassStats expected =
          new SizeClassStats(
              item,
              buckets,
              total,
              used,
              total - used,
              used * item,
              (total - used) * item,
              bucketCapacity % item * (buckets - empty),
              fragmentation.getOrDefault(item, 0L),
              full,
              empty);
      assertEquals(expected, s, context + ": statistics of size " + item);
      boolean needsBucket = buckets > 0 ? total == used : starved.contains(item);
      withoutFreeSlots += needsBucket ? 1 : 0;
      bucketsSeen += buckets;
    }
    assertEquals(allocator.bucketCount(), bucketsSeen, context + ": buckets across classes");
    assertEquals(withoutFreeSlots, allocator.sizeClassesWithoutFreeSlots(), context);
  }

  /**
   * Checks that a failed allocation of {@code length} bytes was right: the class has no free slot
   * and no class that could give up a bucket has a completely free one.
   */
  void checkFull(BucketAllocator allocator, int length) {
    List<SizeClassStats> stats = allocator.sizeClassStats();
    for (SizeClassStats s : stats) {
      if (s.itemSize() == allocator.roundUp(length)) {
        assertEquals(0, s.freeSlots(), context + ": allocating " + length + " failed");
        if (s.bucketCount() == 0) {
          starved.add(s.itemSize());
        }
      }
      assertTrue(
          s.itemSize() == allocator.roundUp(length) || s.completelyFreeBuckets() == 0,
          context
              + ": allocating "
              + length
              + " failed though size "
              + s.itemSize()
              + " could give up a bucket");
    }
  }
}
