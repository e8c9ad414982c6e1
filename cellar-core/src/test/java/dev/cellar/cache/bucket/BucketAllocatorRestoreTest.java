package dev.cellar.cache.bucket;

import static dev.cellar.cache.bucket.BucketAllocatorTest.BUCKET;
import static dev.cellar.cache.bucket.BucketAllocatorTest.BUCKETS;
import static dev.cellar.cache.bucket.BucketAllocatorTest.GIB;
import static dev.cellar.cache.bucket.BucketAllocatorTest.LARGEST;
import static dev.cellar.cache.bucket.BucketAllocatorTest.SIZES;
import static dev.cellar.cache.bucket.BucketAllocatorTest.SMALLEST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link BucketAllocator#restore}: a round trip from the live set of a random run, each kind of
 * rejected entry, and how buckets without entries are shared out.
 */
@ExtendWith(TestSeedExtension.class)
class BucketAllocatorRestoreTest {

  @Test
  void restoringTheLiveSetOfARandomRunRebuildsTheSameAllocator(TestSeed seed) {
    Random random = new Random(seed.value());
    int[] sizes = BucketAllocatorRandomizedTest.SIZES;
    long capacity = BucketAllocatorRandomizedTest.CAPACITY;
    BucketAllocator original = new BucketAllocator(capacity, sizes);
    AllocatorOracle oracle = new AllocatorOracle("the run before the restore");
    BucketAllocatorRandomizedTest.exercise(original, oracle, random, 5_000);

    List<Map.Entry<Long, Integer>> entries = new ArrayList<>(oracle.live().entrySet());
    Collections.shuffle(entries, random);
    long[] offsets = new long[entries.size()];
    int[] lengths = new int[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      offsets[i] = entries.get(i).getKey();
      lengths[i] = entries.get(i).getValue();
    }
    BitSet accepted = new BitSet();
    BucketAllocator restored = BucketAllocator.restore(capacity, sizes, offsets, lengths, accepted);

    assertEquals(offsets.length, accepted.cardinality());
    assertEquals(original.usedSize(), restored.usedSize());
    assertEquals(original.usedCount(), restored.usedCount());
    oracle.check(restored);
    List<SizeClassStats> before = original.sizeClassStats();
    List<SizeClassStats> after = restored.sizeClassStats();
    for (int c = 0; c < sizes.length; c++) {
      assertEquals(before.get(c).usedSlots(), after.get(c).usedSlots());
      assertEquals(before.get(c).fragmentationBytes(), after.get(c).fragmentationBytes());
      assertTrue(
          after.get(c).bucketCount() >= 1
              || after.stream().allMatch(s -> s.completelyFreeBuckets() == 0),
          "class " + c + " has no bucket though one is empty");
    }
    for (int b = 0; b < original.bucketCount(); b++) {
      assertEquals(original.usedSlots(b), restored.usedSlots(b), "bucket " + b);
    }

    BucketAllocatorRandomizedTest.exercise(restored, oracle, random, 5_000);
    oracle.freeAll(restored, random);
    oracle.check(restored);
  }

  @Test
  void anEntryThatFitsNoClassIsRejected() {
    Restored r = restore(new long[] {0, BUCKET, 2 * BUCKET}, new int[] {LARGEST + 1, 0, 100});
    assertEquals(bits(2), r.accepted);
    assertEquals(SMALLEST, r.allocator.usedSize());
    assertEquals(SMALLEST, r.allocator.slotSize(2 * BUCKET));
  }

  @Test
  void anEntryBeyondTheCapacityIsRejected() {
    long total = BUCKETS * BUCKET;
    assertTrue(total + 256 < GIB, "1 GiB leaves a partial bucket");
    Restored r =
        restore(
            new long[] {total, total + 256, -256, total - LARGEST},
            new int[] {100, 100, 100, LARGEST});
    assertEquals(bits(3), r.accepted);
    assertEquals(LARGEST, r.allocator.usedSize());
  }

  @Test
  void anOffsetThatStartsNoSlotOfItsClassIsRejected() {
    long tail = 410L * SMALLEST;
    Restored r =
        restore(
            new long[] {256, SMALLEST + 1024, tail, 2 * SMALLEST}, new int[] {100, 100, 100, 100});
    assertEquals(bits(3), r.accepted);
    assertEquals(1, r.allocator.usedSlots(0));
    long next = r.allocator.allocate(SMALLEST);
    assertEquals(0, r.allocator.bucketIndex(next));
    assertNotEquals(2 * SMALLEST, next);
  }

  @Test
  void anEntryOfAnotherClassThanItsBucketIsRejected() {
    Restored r = restore(new long[] {0, 9216, 2 * SMALLEST}, new int[] {100, 9000, 4000});
    assertEquals(bits(0, 2), r.accepted);
    assertEquals(SMALLEST, r.allocator.slotSize(0));
    assertEquals(2 * SMALLEST, r.allocator.usedSize());
  }

  @Test
  void anEntryOverlappingAClaimedSlotIsRejected() {
    Restored r = restore(new long[] {SMALLEST, SMALLEST, 0}, new int[] {5000, 4000, 3000});
    assertEquals(bits(0, 2), r.accepted);
    assertEquals(2, r.allocator.usedCount());
    assertEquals(
        SMALLEST - 5000 + SMALLEST - 3000,
        r.allocator.sizeClassStats().get(0).fragmentationBytes());
    assertEquals(SMALLEST, r.allocator.free(SMALLEST, 5000));
    assertThrows(IllegalStateException.class, () -> r.allocator.free(SMALLEST, 4000));
  }

  @Test
  void rejectedEntriesClearTheirBitsAndTheArraysMustMatch() {
    BitSet accepted = bits(0, 1, 5);
    BucketAllocator.restore(GIB, SIZES, new long[] {0, 0}, new int[] {100, 100}, accepted);
    assertEquals(bits(0, 5), accepted);
    assertThrows(
        IllegalArgumentException.class,
        () -> BucketAllocator.restore(GIB, SIZES, new long[1], new int[2], new BitSet()));
    assertThrows(
        IllegalArgumentException.class,
        () -> BucketAllocator.restore(BUCKET, SIZES, new long[0], new int[0], new BitSet()));
  }

  @Test
  void bucketsWithoutEntriesGoFirstToClassesWithoutABucket() {
    int classes = SIZES.length;
    long[] offsets = new long[classes];
    int[] lengths = new int[classes];
    for (int b = 0; b < classes; b++) {
      offsets[b] = b * BUCKET;
      lengths[b] = LARGEST;
    }
    Restored r = restore(offsets, lengths);
    assertEquals(classes, r.accepted.cardinality());
    List<SizeClassStats> stats = r.allocator.sizeClassStats();
    for (int c = 0; c < classes - 1; c++) {
      assertEquals(1, stats.get(c).bucketCount(), "class " + c);
      assertEquals(SIZES[c], r.allocator.slotSize((classes + c) * BUCKET));
    }
    assertEquals(BUCKETS - (classes - 1), stats.get(classes - 1).bucketCount());
    assertEquals(LARGEST, r.allocator.slotSize((2L * classes - 1) * BUCKET));
  }

  @Test
  void aClassLeftWithoutABucketTakesAnEmptyOneOrStarvesUntilOneEmpties() {
    int[] sizes = {256, 512, 1024};
    BitSet accepted = new BitSet();
    BucketAllocator small =
        BucketAllocator.restore(
            3 * 4096, sizes, new long[] {0, 4096}, new int[] {1024, 1024}, accepted);
    assertEquals(bits(0, 1), accepted);
    List<SizeClassStats> stats = small.sizeClassStats();
    assertEquals(1, stats.get(0).bucketCount());
    assertEquals(0, stats.get(1).bucketCount());
    assertEquals(2, stats.get(2).bucketCount());
    assertEquals(256, small.slotSize(2 * 4096));
    assertEquals(0, small.sizeClassesWithoutFreeSlots());

    assertEquals(2 * 4096, small.allocate(512), "the empty last bucket of class 0");
    assertEquals(0, small.sizeClassStats().get(0).bucketCount());
    assertEquals(-1, small.allocate(256));
    assertTrue(small.starved(0));
    assertEquals(1, small.sizeClassesWithoutFreeSlots());
    small.free(0, 1024);
    assertEquals(0, small.allocate(256));
    assertEquals(256, small.slotSize(0));
    assertFalse(small.starved(0));
    assertEquals(0, small.sizeClassesWithoutFreeSlots());
  }

  private record Restored(BucketAllocator allocator, BitSet accepted) {}

  private static Restored restore(long[] offsets, int[] lengths) {
    BitSet accepted = new BitSet();
    return new Restored(BucketAllocator.restore(GIB, SIZES, offsets, lengths, accepted), accepted);
  }

  private static BitSet bits(int... indexes) {
    BitSet set = new BitSet();
    for (int index : indexes) {
      set.set(index);
    }
    return set;
  }
}
