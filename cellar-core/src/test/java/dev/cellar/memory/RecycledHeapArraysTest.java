package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class RecycledHeapArraysTest {

  private static byte[] filled(int length, int seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static Object arrayOf(Buf buf) {
    return buf.segment().heapBase().orElseThrow();
  }

  @Test
  void aCopyHoldsTheSourceBytesInAnArrayOfItsSizeClass() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    byte[] bytes = filled(65_600, 1);
    Buf copy = arrays.copyRetained(Buf.wrap(bytes));
    assertEquals(65_600, copy.capacity());
    assertArrayEquals(bytes, copy.getBytes(0, copy.capacity()));
    assertEquals(65_536 + RecycledHeapArrays.GRANULE, RecycledHeapArrays.arrayLength(copy));
    assertEquals(1, arrays.recycledCopies());
    copy.release();
  }

  @Test
  void theArrayOfAReleasedCopyServesTheNextCopyOfItsClass() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    Buf first = arrays.copyRetained(Buf.wrap(filled(40_000, 1)));
    Object array = arrayOf(first);
    first.release();
    byte[] second = filled(40_100, 2);
    Buf reused = arrays.copyRetained(Buf.wrap(second));
    assertSame(array, arrayOf(reused));
    assertArrayEquals(second, reused.getBytes(0, reused.capacity()));
    assertEquals(40_448, arrays.createdBytes());
    reused.release();
  }

  @Test
  void aBufferTakenAtLeastIsTheWholeArrayOfItsClassAndGoesBackAsOne() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    Buf whole = arrays.takeAtLeastRetained(40_000);
    assertEquals(40_448, whole.capacity(), "the whole array of the class");
    assertEquals(whole.capacity(), RecycledHeapArrays.arrayLength(whole));
    Object array = arrayOf(whole);
    whole.release();
    Buf exact = arrays.takeRetained(40_100);
    assertSame(array, arrayOf(exact), "the same array, now for an exact buffer");
    assertEquals(40_100, exact.capacity());
    exact.release();
    assertEquals(100, arrays.takeAtLeastRetained(100).capacity(), "below the classes: exact");
    assertEquals(1, arrays.freshCopies());
  }

  @Test
  void aCopyStillReferencedKeepsItsArray() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    Buf first = arrays.copyRetained(Buf.wrap(filled(40_000, 1)));
    first.retain();
    first.release();
    Buf second = arrays.copyRetained(Buf.wrap(filled(40_000, 2)));
    assertNotSame(arrayOf(first), arrayOf(second));
    assertArrayEquals(filled(40_000, 1), first.getBytes(0, first.capacity()));
    first.release();
    second.release();
    assertThrows(IllegalStateException.class, () -> first.getByte(0));
  }

  @Test
  void copiesOutsideThePooledSizesOrBeyondTheBudgetGetExactArrays() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(100_000);
    Buf small = arrays.copyRetained(Buf.wrap(filled(1000, 1)));
    Buf large = arrays.copyRetained(Buf.wrap(filled(RecycledHeapArrays.MAX_POOLED + 1, 2)));
    Buf pooled = arrays.copyRetained(Buf.wrap(filled(60_000, 3)));
    Buf overBudget = arrays.copyRetained(Buf.wrap(filled(60_000, 4)));
    assertEquals(1000, RecycledHeapArrays.arrayLength(small));
    assertEquals(RecycledHeapArrays.MAX_POOLED + 1, RecycledHeapArrays.arrayLength(large));
    assertEquals(60_416, RecycledHeapArrays.arrayLength(pooled));
    assertEquals(60_000, RecycledHeapArrays.arrayLength(overBudget));
    assertEquals(1, arrays.recycledCopies());
    assertEquals(3, arrays.freshCopies());
    assertArrayEquals(filled(60_000, 4), overBudget.getBytes(0, 60_000));
    for (Buf buf : List.of(small, large, pooled, overBudget)) {
      buf.release();
    }
  }

  @Test
  void aCompositeSourceIsCopiedWhole() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    byte[] bytes = filled(50_000, 5);
    MemorySegment whole = MemorySegment.ofArray(bytes);
    Buf composite =
        Buf.wrap(
            new MemorySegment[] {whole.asSlice(0, 20_000), whole.asSlice(20_000, 30_000)},
            RefCnt.unpooled());
    Buf copy = arrays.copyRetained(composite);
    assertArrayEquals(bytes, copy.getBytes(0, copy.capacity()));
    copy.release();
  }

  /**
   * Threads copy, check and release blocks of random sizes from one pool; every copy must hold its
   * own bytes until released, whatever other threads recycle meanwhile.
   */
  @Test
  void concurrentCopiesNeverShareALiveArray(TestSeed seed) throws Exception {
    RecycledHeapArrays arrays = new RecycledHeapArrays(2 << 20);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long threadSeed = seed.value() + t;
        futures.add(pool.submit(() -> copyAndCheck(arrays, new Random(threadSeed))));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(arrays.recycledCopies() > 0);
    assertTrue(arrays.createdBytes() <= 2 << 20);
  }

  private static Void copyAndCheck(RecycledHeapArrays arrays, Random random) {
    List<Buf> held = new ArrayList<>();
    List<Byte> marks = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      int length = 16 * 1024 + random.nextInt(48 * 1024);
      byte mark = (byte) random.nextInt();
      byte[] bytes = new byte[length];
      Arrays.fill(bytes, mark);
      held.add(arrays.copyRetained(Buf.wrap(bytes)));
      marks.add(mark);
      if (held.size() > 8 || random.nextBoolean()) {
        int victim = random.nextInt(held.size());
        Buf buf = held.remove(victim);
        byte expected = marks.remove(victim);
        for (int index = 0; index < buf.capacity(); index += 997) {
          assertEquals(expected, buf.getByte(index), "index=" + index);
        }
        buf.release();
      }
    }
    held.forEach(Buf::release);
    return null;
  }

  /** Counts its slot's frees and whether the slot was free when told. */
  private static final class CountingAttachment implements SlotAttachment {
    int freed;

    @Override
    public void slotFreed() {
      freed++;
    }
  }

  @Test
  void aReusableBufferIsTheSameObjectRevivedWithItsSlotsAttachment() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    BufSource reusable = arrays.reusableSource();
    Buf first = reusable.takeAtLeastRetained(40_000);
    assertEquals(40_448, first.capacity(), "a whole array of the class");
    assertNull(first.slotAttachment());
    CountingAttachment attachment = new CountingAttachment();
    assertTrue(first.attachToSlot(attachment));
    assertSame(attachment, first.slotAttachment());
    first.putInt(0, 42);
    assertTrue(first.release());
    assertEquals(1, attachment.freed, "told before the slot can be taken again");
    assertThrows(
        IllegalStateException.class,
        () -> first.getInt(0),
        "a released reusable buffer refuses access until taken again");
    assertFalse(first.tryRetain());

    Buf second = reusable.takeAtLeastRetained(40_100);
    assertSame(first, second, "the slot's buffer object, revived");
    assertEquals(1, second.refCnt());
    assertSame(attachment, second.slotAttachment());
    assertEquals(42, second.getInt(0), "the array as its last holder left it");
    second.retain();
    assertFalse(second.release());
    assertTrue(second.release());
    assertEquals(2, attachment.freed);
  }

  @Test
  void aRevivedBufferIsRetainedOnlyInItsNewGeneration() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    Buf buf = arrays.reusableSource().takeAtLeastRetained(40_000);
    int first = buf.generation();
    assertTrue(buf.tryRetain(first));
    buf.release();
    buf.release();
    assertFalse(buf.tryRetain(first), "released");
    assertSame(buf, arrays.reusableSource().takeAtLeastRetained(40_000));
    assertFalse(buf.tryRetain(first), "handed out anew");
    assertEquals(1, buf.refCnt());
    assertTrue(buf.tryRetain(buf.generation()));
    assertEquals(2, buf.refCnt());
    buf.release();
    assertTrue(buf.release());
  }

  @Test
  void aStaleRetainThatMeetsTheLastReleaseFreesTheSlot() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(40_448);
    Buf buf = arrays.reusableSource().takeAtLeastRetained(40_000);
    CountingAttachment attachment = new CountingAttachment();
    buf.attachToSlot(attachment);
    int old = buf.generation();
    buf.release();
    assertSame(buf, arrays.reusableSource().takeAtLeastRetained(40_000));
    assertFalse(buf.tryRetain(old));
    assertTrue(buf.release(), "the new holder's release is the last");
    assertEquals(2, attachment.freed);
    assertSame(buf, arrays.reusableSource().takeAtLeastRetained(40_000), "the slot came back");
    buf.release();
  }

  @Test
  void onlyAReusableBufferKeepsAnAttachment() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    Buf whole = arrays.takeAtLeastRetained(40_000);
    assertFalse(whole.attachToSlot(new CountingAttachment()));
    assertNull(whole.slotAttachment());
    whole.release();
    assertFalse(Buf.wrap(new byte[16]).attachToSlot(new CountingAttachment()));
    Buf outOfRange = arrays.reusableSource().takeAtLeastRetained(RecycledHeapArrays.MAX_POOLED + 1);
    assertFalse(outOfRange.attachToSlot(new CountingAttachment()), "an array of its own");
    outOfRange.release();
  }

  @Test
  void aSlotTakenAsAPartAfterAReusableTakeGetsACountOfItsOwn() {
    RecycledHeapArrays arrays = new RecycledHeapArrays(40_448);
    Buf reusable = arrays.reusableSource().takeAtLeastRetained(40_000);
    CountingAttachment attachment = new CountingAttachment();
    reusable.attachToSlot(attachment);
    Object array = arrayOf(reusable);
    reusable.release();
    Buf part = arrays.takeRetained(40_000);
    assertSame(array, arrayOf(part), "the budget holds one array");
    assertNotSame(reusable, part);
    assertEquals(0, reusable.refCnt(), "the reusable buffer stays released");
    assertFalse(reusable.tryRetain());
    part.release();
    assertEquals(2, attachment.freed, "told again, which it must ignore");
    assertSame(reusable, arrays.reusableSource().takeAtLeastRetained(40_000));
  }

  @Test
  void reusableTakesFromManyThreadsNeverShareABuffer() throws Exception {
    RecycledHeapArrays arrays = new RecycledHeapArrays(8 * 40_448);
    BufSource reusable = arrays.reusableSource();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 20_000; i++) {
                    Buf buf = reusable.takeAtLeastRetained(40_000);
                    int stamp = thread * 1_000_000 + i;
                    buf.putInt(0, stamp);
                    buf.putInt(40_000 - 4, stamp);
                    Thread.onSpinWait();
                    if (buf.getInt(0) != stamp
                        || buf.getInt(40_000 - 4) != stamp
                        || buf.refCnt() != 1) {
                      throw new AssertionError(
                          "buffer shared: " + stamp + " found " + buf.getInt(0));
                    }
                    buf.release();
                  }
                  return null;
                }));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
