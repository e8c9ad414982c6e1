package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BufAllocatorTest {

  @Test
  void defaultsAreHBases() {
    BufAllocatorConfig config = BufAllocatorConfig.DEFAULT;
    assertTrue(config.poolEnabled());
    assertEquals(66560, config.bufferSize());
    assertEquals(1860, config.maxBufferCount());
    assertEquals(11093, config.minimalAllocateSize());
    assertEquals(2 * 66560, config.largeBufferSize());
    assertEquals(30 * 15 * 2, config.largeMaxBufferCount());
    assertEquals(2 * 66560, config.largestBufferSize());
  }

  @Test
  void keysOverrideDefaultsAndDerivedValuesFollowBufferSize() {
    BufAllocatorConfig config =
        BufAllocatorConfig.from(
            Settings.of(
                Map.of(
                    "hbase.server.allocator.buffer.size", "131072",
                    "hbase.regionserver.handler.count", "10")));
    assertEquals(131072, config.bufferSize());
    assertEquals(10 * 16 * 2, config.maxBufferCount());
    assertEquals(131072 / 6, config.minimalAllocateSize());
    assertEquals(262144, config.largeBufferSize());
    assertEquals(10 * 8 * 2, config.largeMaxBufferCount());
    BufAllocatorConfig explicit =
        BufAllocatorConfig.from(
            Settings.of(
                Map.of(
                    "hbase.server.allocator.pool.enabled", "false",
                    "hbase.server.allocator.max.buffer.count", "7",
                    "hbase.server.allocator.minimal.allocate.size", "0")));
    assertFalse(explicit.poolEnabled());
    assertEquals(7, explicit.maxBufferCount());
    assertEquals(0, explicit.minimalAllocateSize());
    BufAllocatorConfig large =
        BufAllocatorConfig.from(
            Settings.of(
                Map.of(
                    "cellar.server.allocator.large.buffer.size", "80000",
                    "cellar.server.allocator.large.max.buffer.count", "5")));
    assertEquals(80000, large.largeBufferSize());
    assertEquals(5, large.largeMaxBufferCount());
    BufAllocatorConfig off =
        BufAllocatorConfig.from(
            Settings.of(Map.of("cellar.server.allocator.large.buffer.size", "0")));
    assertEquals(0, off.largeBufferSize());
    assertEquals(0, off.largeMaxBufferCount());
    assertEquals(66560, off.largestBufferSize());
  }

  @Test
  void invalidValuesNameTheKey() {
    for (Map.Entry<String, String> bad :
        List.of(
            Map.entry("hbase.server.allocator.buffer.size", "0"),
            Map.entry("hbase.server.allocator.buffer.size", "64k"),
            Map.entry("hbase.server.allocator.pool.enabled", "yes"),
            Map.entry("hbase.server.allocator.max.buffer.count", "-1"),
            Map.entry("hbase.server.allocator.minimal.allocate.size", "70000"),
            Map.entry("hbase.regionserver.handler.count", "0"),
            Map.entry("cellar.server.allocator.large.buffer.size", "66560"),
            Map.entry("cellar.server.allocator.large.buffer.size", "-1"),
            Map.entry("cellar.server.allocator.large.max.buffer.count", "-2"))) {
      InvalidConfigException error =
          assertThrows(
              InvalidConfigException.class,
              () -> BufAllocatorConfig.from(Settings.of(Map.ofEntries(bad))));
      assertEquals(bad.getKey(), error.key());
      assertTrue(error.getMessage().contains(bad.getValue()), error.getMessage());
    }
  }

  @Test
  void aReadIntoAWholePooledBufferGetsItsSlotsOwnView() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1024, 1, 0))) {
      Buf whole = allocator.allocateContiguousAtLeast(700);
      assertEquals(1024, whole.capacity(), "the whole buffer of the class");
      ByteBuffer view = whole.soleHolderView();
      assertEquals(1024, view.capacity());
      whole.putInt(600, 0x01020304);
      assertEquals(0x01020304, view.getInt(600), "the view is over the buffer's memory");
      assertNull(whole.slice(8, 100).soleHolderView(), "a view not at the slot's start has none");
      whole.release();
      Buf again = allocator.allocateContiguousAtLeast(900);
      assertSame(view, again.soleHolderView(), "the slot keeps its view");
      Buf heap = allocator.allocateContiguousAtLeast(900);
      assertFalse(heap.isDirect(), "the one buffer is taken");
      assertEquals(900, heap.capacity(), "a heap buffer of the size asked");
      assertNull(heap.soleHolderView());
      again.release();
      heap.release();
    }
  }

  @Test
  void aReusablePooledBufferComesBackRevivedWithItsAttachmentAndView() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1024, 1, 0))) {
      BufSource reusable = allocator.reusableSource();
      Buf first = reusable.takeAtLeastRetained(700);
      assertEquals(1024, first.capacity(), "the whole buffer of the class");
      assertTrue(first.isDirect());
      ByteBuffer view = first.soleHolderView();
      assertNotNull(view, "the slot's own view");
      SlotAttachment attachment =
          new SlotAttachment() {
            @Override
            public void slotFreed() {
              assertEquals(1, allocator.stats().usedBufferCount(), "told before the slot is free");
            }
          };
      assertTrue(first.attachToSlot(attachment));
      int generation = first.generation();
      first.release();
      assertEquals(0, allocator.stats().usedBufferCount());
      assertFalse(first.tryRetain(generation));

      Buf second = reusable.takeAtLeastRetained(900);
      assertSame(first, second, "the slot's buffer object, revived");
      assertSame(attachment, second.slotAttachment());
      assertSame(view, second.soleHolderView());
      assertFalse(second.tryRetain(generation), "an earlier generation is not retained");
      Buf heap = reusable.takeAtLeastRetained(900);
      assertFalse(heap.isDirect(), "the one buffer is taken: the heap");
      assertNull(heap.slotAttachment());
      assertFalse(heap.attachToSlot(attachment));
      Buf plain = allocator.allocateContiguousAtLeast(900);
      assertFalse(plain.attachToSlot(attachment));
      plain.release();
      heap.release();
      second.release();
      Buf taken = allocator.allocateContiguousAtLeast(900);
      assertNotSame(first, taken, "a plain take of the slot gets a buffer of its own");
      assertNull(taken.slotAttachment());
      taken.release();
      assertEquals(0, allocator.stats().usedBufferCount());
    }
  }

  @Test
  void smallAndEmptyRequestsComeFromTheHeap() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100))) {
      Buf small = allocator.allocate(99);
      Buf empty = allocator.allocate(0);
      assertFalse(small.isDirect());
      assertEquals(0, empty.capacity());
      BufAllocatorStats stats = allocator.stats();
      assertEquals(99, stats.heapAllocationBytes());
      assertEquals(0, stats.poolAllocationBytes());
      assertEquals(0, stats.totalBufferCount(), "the pool is created lazily");
      small.release();
      empty.release();
      Buf pooled = allocator.allocate(100);
      assertTrue(pooled.isDirect());
      assertEquals(100, pooled.capacity());
      assertEquals(1, allocator.stats().usedBufferCount());
      pooled.release();
      assertEquals(0, allocator.stats().usedBufferCount());
    }
  }

  @Test
  void exhaustionFallsBackToTheHeapAndCountsIt() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1024, 3, 0))) {
      List<Buf> held = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Buf buf = allocator.allocateOneBuffer();
        assertTrue(buf.isDirect());
        held.add(buf);
      }
      Buf fallback = allocator.allocate(1024);
      assertFalse(fallback.isDirect(), "the pool is exhausted");
      held.add(fallback);
      BufAllocatorStats stats = allocator.stats();
      assertEquals(3, stats.totalBufferCount());
      assertEquals(3, stats.usedBufferCount());
      assertEquals(0, stats.freeBufferCount());
      assertEquals(3 * 1024, stats.poolAllocationBytes());
      assertEquals(1024, stats.heapAllocationBytes());
      assertEquals(1, stats.heapAllocationCount());
      assertEquals(0.25, stats.heapAllocationRatio(), 1e-9);
      held.forEach(Buf::release);
      assertEquals(3, allocator.stats().freeBufferCount());
      Buf again = allocator.allocateOneBuffer();
      assertTrue(again.isDirect(), "released buffers are reused");
      again.release();
      assertEquals(3, allocator.stats().totalBufferCount(), "no buffer beyond the maximum");
    }
  }

  @Test
  void largeRequestsTakeSeveralPooledBuffersAndAHeapTail() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100))) {
      Buf exact = allocator.allocate(3000);
      assertInstanceOf(CompositeBuf.class, exact);
      assertEquals(3, ((CompositeBuf) exact).segmentCount());
      assertTrue(exact.isDirect());
      Buf withTail = allocator.allocate(2050);
      assertEquals(3, ((CompositeBuf) withTail).segmentCount());
      assertFalse(withTail.isDirect(), "a 50-byte tail is below the minimal size");
      Buf pooledTail = allocator.allocate(2500);
      assertTrue(pooledTail.isDirect(), "a 500-byte tail is pooled");
      assertEquals(8, allocator.stats().usedBufferCount());
      assertEquals(50, allocator.stats().heapAllocationBytes());
      withTail.release();
      exact.release();
      pooledTail.release();
      assertEquals(0, allocator.stats().usedBufferCount());
    }
  }

  @Test
  void contiguousRequestsAreNeverComposite() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100))) {
      Buf fits = allocator.allocateContiguous(1000);
      assertTrue(fits.isSingleSegment() && fits.isDirect());
      Buf small = allocator.allocateContiguous(10);
      assertTrue(small.isDirect(), "short-lived contiguous buffers are pooled below the minimum");
      small.release();
      Buf oversize = allocator.allocateContiguous(1001);
      assertTrue(oversize.isSingleSegment());
      assertFalse(oversize.isDirect());
      assertEquals(1001, allocator.stats().heapAllocationBytes());
      fits.release();
      oversize.release();
    }
  }

  @Test
  void blocksAboveTheBufferSizeTakeOneLargeBuffer() {
    try (BufAllocator allocator =
        new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100, 2000, 2))) {
      Buf contiguous = allocator.allocateContiguous(1001);
      Buf any = allocator.allocate(2000);
      for (Buf buf : List.of(contiguous, any)) {
        assertTrue(buf.isSingleSegment() && buf.isDirect(), "one pooled large buffer");
      }
      assertEquals(1001, contiguous.capacity());
      BufAllocatorStats stats = allocator.stats();
      assertEquals(new BufferPoolStats(2000, 2, 2, 2, 3001), stats.largeBuffers());
      assertEquals(0, stats.buffers().createdCount(), "the small class is untouched");
      assertEquals(2, stats.usedBufferCount());
      assertEquals(3001, stats.poolAllocationBytes());
      assertEquals(0, stats.heapAllocationBytes());
      assertEquals(0, allocator.heapAllocationRatioSinceLastCall());
      contiguous.putLong(993, 0x1122334455667788L);
      assertEquals(0x1122334455667788L, contiguous.getLong(993));

      Buf overContiguous = allocator.allocateContiguous(1500);
      assertFalse(overContiguous.isDirect(), "the large class is exhausted: the heap, counted");
      Buf overAny = allocator.allocate(1500);
      assertInstanceOf(CompositeBuf.class, overAny, "the large class is exhausted: HBase's policy");
      assertTrue(overAny.isDirect());
      Buf aboveEveryClass = allocator.allocateContiguous(2001);
      assertFalse(aboveEveryClass.isDirect());
      assertEquals(1500 + 2001, allocator.stats().heapAllocationBytes());
      assertEquals(2, allocator.stats().buffers().usedCount());

      List.of(contiguous, any, overContiguous, overAny, aboveEveryClass).forEach(Buf::release);
      assertEquals(0, allocator.stats().usedBufferCount());
      assertEquals(2, allocator.stats().largeBuffers().freeCount());
    }
  }

  @Test
  void contiguousRoomIsTheSizeOfTheClassARequestTakes() {
    try (BufAllocator allocator =
        new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100, 2000, 2))) {
      assertEquals(1000, allocator.contiguousRoomFor(1));
      assertEquals(1000, allocator.contiguousRoomFor(1000));
      assertEquals(2000, allocator.contiguousRoomFor(1001));
      assertEquals(2000, allocator.contiguousRoomFor(2000));
      assertEquals(2001, allocator.contiguousRoomFor(2001));
    }
    BufAllocator hbase = new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100));
    assertEquals(1001, hbase.contiguousRoomFor(1001), "no large class");
    hbase.close();
  }

  @Test
  void partialExhaustionGivesPooledHeadAndHeapRest() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1000, 2, 0))) {
      Buf buf = allocator.allocate(4000);
      assertEquals(4000, buf.capacity());
      assertEquals(2000, allocator.stats().poolAllocationBytes());
      assertEquals(2000, allocator.stats().heapAllocationBytes());
      buf.putLong(1996, 0x1122334455667788L);
      assertEquals(0x1122334455667788L, buf.getLong(1996));
      buf.release();
      assertEquals(2, allocator.stats().freeBufferCount());
    }
  }

  @Test
  void disabledPoolAllocatesEverythingOnTheHeap() {
    try (BufAllocator allocator =
        new BufAllocator(new BufAllocatorConfig(false, 1000, 10, 0, 2000, 2))) {
      Buf buf = allocator.allocate(5000);
      assertTrue(buf.isSingleSegment());
      assertFalse(buf.isDirect());
      Buf large = allocator.allocateContiguous(1500);
      assertFalse(large.isDirect(), "the large class is off with the pool");
      assertEquals(1.0, allocator.stats().heapAllocationRatio());
      assertEquals(0, allocator.stats().largeBuffers().maxCount());
      buf.release();
      large.release();
    }
    Buf shared = BufAllocator.HEAP.allocate(10);
    assertFalse(shared.isDirect());
    shared.release();
    assertThrows(IllegalStateException.class, BufAllocator.HEAP::close);
  }

  @Test
  void buffersAreCreatedLazilyInSlabs() {
    try (BufAllocator allocator =
        new BufAllocator(new BufAllocatorConfig(true, 512 * 1024, 100, 0))) {
      Buf first = allocator.allocateOneBuffer();
      assertEquals(4, allocator.stats().totalBufferCount(), "one 2 MiB slab of 512 KiB buffers");
      List<Buf> more = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        more.add(allocator.allocateOneBuffer());
      }
      assertEquals(8, allocator.stats().totalBufferCount());
      first.release();
      more.forEach(Buf::release);
    }
  }

  @Test
  void heapAllocationRatioSinceLastCall() {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 100))) {
      assertEquals(0, allocator.heapAllocationRatioSinceLastCall());
      allocator.allocate(50).release();
      allocator.allocate(150).release();
      assertEquals(0.25, allocator.heapAllocationRatioSinceLastCall(), 1e-9);
      allocator.allocate(1000).release();
      assertEquals(0, allocator.heapAllocationRatioSinceLastCall(), 1e-9);
    }
  }

  @Test
  void closeRefusesWhileBuffersAreInUseAndAllocationAfterCloseFails() {
    BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1000, 10, 0, 2000, 2));
    Buf buf = allocator.allocate(500);
    IllegalStateException refused = assertThrows(IllegalStateException.class, allocator::close);
    assertTrue(refused.getMessage().contains("1 pooled buffers"), refused.getMessage());
    buf.release();
    Buf large = allocator.allocateContiguous(1500);
    refused = assertThrows(IllegalStateException.class, allocator::close);
    assertTrue(refused.getMessage().contains("1 pooled buffers"), refused.getMessage());
    assertTrue(allocator.allocate(500).release(), "a refused close frees nothing");
    large.release();
    allocator.close();
    allocator.close();
    assertThrows(IllegalStateException.class, () -> allocator.allocate(500));
  }

  @Test
  void negativeSizeIsRejected() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> BufAllocator.HEAP.allocate(-1));
    assertTrue(error.getMessage().contains("-1"));
  }
}
