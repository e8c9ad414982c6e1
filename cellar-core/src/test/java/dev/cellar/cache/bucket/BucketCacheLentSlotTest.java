package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.TestBlock;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufSource;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Blocks read straight into a slot the bucket cache lent ({@code blockMemory} then {@code
 * cacheBlockInItsMemory}): indexed at once without a copy, the slot's lifetime shared by the reader
 * and the entry, and every case where the cache must fall back to its queued, copying path.
 */
@ExtendWith(TestSeedExtension.class)
class BucketCacheLentSlotTest {

  static final int BLOCK = 4096;

  /** Checksums and the next block's header, read along with a block. */
  static final int TRAILING = 53;

  static final int[] SIZES = SmallBucketCaches.SIZES;
  static final long BUCKET = SmallBucketCaches.BUCKET;

  @TempDir Path directory;

  private SmallBucketCaches caches;
  private BufAllocator allocator;
  private final String file = "lent-" + System.nanoTime();

  @BeforeEach
  void createAllocator() {
    caches = new SmallBucketCaches(16384);
    allocator = caches.allocator;
  }

  @AfterEach
  void shutDown() {
    caches.close();
  }

  private BucketCache cache(BucketCacheConfig config) throws IOException {
    return caches.create(config);
  }

  private BucketCache offHeap(long buckets) throws IOException {
    return caches.create("offheap", buckets);
  }

  private BlockCacheKey key(long i) {
    return new BlockCacheKey(file, i * 100_000L);
  }

  private static TestBlock read(BucketCache cache, BlockCacheKey key, int size, int trailing) {
    BufSource memory = cache.blockMemory(BlockCategory.DATA);
    assertNotNull(memory, "a shared-memory engine lends slots");
    return TestBlock.readInto(memory, key, size, trailing, BlockCategory.DATA);
  }

  @Test
  void aBlockReadIntoALentSlotIsIndexedAtOnceWithoutACopy() throws Exception {
    BucketCache cache = offHeap(4);
    TestBlock loaded = read(cache, key(0), BLOCK, TRAILING);
    assertEquals(5120, cache.usedSlotBytes(), "the slot is taken when lent");
    cache.cacheBlockInItsMemory(key(0), loaded, false);
    assertEquals(1, cache.blockCount());
    assertEquals(0, cache.snapshot().queuedCount(), "nothing queued for a writer");

    Cacheable hit = cache.getBlockRetained(key(0), true, false, true);
    assertNotNull(hit, "indexed without waiting for a writer");
    assertEquals(
        loaded.buf().segment().address(),
        hit.buf().segment().address(),
        "the hit is the very memory the block was read into");
    assertEquals(-1, TestBlock.firstMismatch(hit, key(0), BLOCK));
    assertEquals(5120, cache.usedSlotBytes(), "one slot, no copy");
    hit.release();
    loaded.release();
    assertEquals(5120, cache.usedSlotBytes(), "the index keeps the slot");
  }

  /**
   * A reader offers its block under its own probe, re-pointed at the next block right after: the
   * entry keeps the key's fields, not the probe, and is found, evicted with its file and persisted
   * under its own key.
   */
  @Test
  void aBlockOfferedUnderAProbeKeepsItsOwnKey() throws Exception {
    BucketCache cache = offHeap(4);
    BlockCacheKey.Probe probe = new BlockCacheKey.Probe();
    for (int i = 0; i < 3; i++) {
      TestBlock loaded = read(cache, key(i), BLOCK, TRAILING);
      cache.cacheBlockInItsMemory(
          probe.set(file, key(i).fileId(), key(i).offset(), null), loaded, false);
      loaded.release();
    }
    probe.set("another-" + file, 1, 0, null);
    assertEquals(3, cache.blockCount());
    List<BlockCacheKey> keys = new ArrayList<>();
    for (BucketEntry entry : cache.entries()) {
      keys.add(entry.key());
    }
    assertEquals(List.of(key(0), key(1), key(2)), keys, "in file and offset order");
    for (int i = 0; i < 3; i++) {
      Cacheable hit = cache.getBlockRetained(key(i), true, false, true);
      assertNotNull(hit, "block " + i);
      assertEquals(-1, TestBlock.firstMismatch(hit, key(i), BLOCK), "block " + i);
      hit.release();
    }
    assertEquals(3, cache.evictBlocksByHfileName(file));
    assertEquals(0, cache.blockCount());
    assertEquals(0, cache.usedSlotBytes(), "every slot freed");
  }

  @Test
  void aSlotLentAgainIsTheSameViewRevivedInANewGeneration() throws Exception {
    BucketCache cache = offHeap(4);
    BufSource memory = cache.blockMemory(BlockCategory.DATA);
    Buf first = memory.takeAtLeastRetained(BLOCK + TRAILING);
    assertEquals(5120, first.capacity(), "the whole slot");
    long address = first.segment().address();
    int generation = first.generation();
    ByteBuffer view = first.soleHolderView();
    assertNotNull(view, "the slot's own view, for the checksum pass");
    first.release();
    assertEquals(0, cache.usedSlotBytes(), "a slot nobody published returns at the release");

    Buf again = memory.takeAtLeastRetained(BLOCK + TRAILING);
    assertSame(first, again, "the slot's view, lent again");
    assertSame(view, again.soleHolderView());
    assertEquals(1, again.refCnt());
    assertTrue(again.generation() != generation);
    again.release();

    TestBlock loaded = read(cache, key(1), BLOCK, TRAILING);
    assertEquals(address, loaded.buf().segment().address(), "the same slot");
    cache.cacheBlockInItsMemory(key(1), loaded, false);
    assertEquals(1, cache.blockCount());
    loaded.release();
    assertEquals(5120, cache.usedSlotBytes(), "the entry keeps the slot");
    assertTrue(cache.evictBlock(key(1)));
    assertEquals(0, cache.usedSlotBytes());
    Buf third = memory.takeAtLeastRetained(BLOCK + TRAILING);
    assertSame(first, third, "lent again once the entry let go");
    assertEquals(1, third.refCnt());
    third.release();
  }

  @Test
  void aSlotWhoseReadFailsReturnsWhenTheReaderLetsGo() throws Exception {
    BucketCache cache = offHeap(4);
    BufSource memory = cache.blockMemory(BlockCategory.DATA);
    // a read that fails (a checksum mismatch, an I/O error) releases what it read into
    memory.takeRetained(BLOCK + TRAILING).release();
    assertEquals(0, cache.usedSlotBytes(), "the slot is back in the allocator");
    assertEquals(0, cache.liveEntries());
    assertEquals(0, cache.blockCount(), "nothing was indexed");
  }

  @Test
  void anEvictedLentSlotWaitsForTheReaderThatReadIntoIt() throws Exception {
    BucketCache cache = offHeap(4);
    TestBlock loaded = read(cache, key(0), BLOCK, TRAILING);
    cache.cacheBlockInItsMemory(key(0), loaded, false);
    assertTrue(cache.evictBlock(key(0)));
    assertNull(cache.getBlockRetained(key(0), true, false, true));
    assertEquals(5120, cache.usedSlotBytes(), "the reader still reads the slot");
    for (int i = 1; i < 12; i++) {
      TestBlock other = read(cache, key(i), BLOCK, TRAILING);
      cache.cacheBlockInItsMemory(key(i), other, false);
      other.release();
    }
    assertEquals(-1, TestBlock.firstMismatch(loaded, key(0), BLOCK), "held bytes unchanged");
    long before = cache.usedSlotBytes();
    loaded.release();
    assertEquals(before - 5120, cache.usedSlotBytes(), "the last release frees the slot");
  }

  @Test
  void aSecondReadOfACachedBlockGivesItsSlotBack() throws Exception {
    BucketCache cache = offHeap(4);
    TestBlock first = read(cache, key(0), BLOCK, TRAILING);
    TestBlock second = read(cache, key(0), BLOCK, TRAILING);
    cache.cacheBlockInItsMemory(key(0), first, false);
    cache.cacheBlockInItsMemory(key(0), second, false);
    assertEquals(1, cache.blockCount());
    assertEquals(-1, TestBlock.firstMismatch(second, key(0), BLOCK));
    second.release();
    assertEquals(5120, cache.usedSlotBytes(), "only the indexed slot stays");
    first.release();
  }

  @Test
  void aBlockWhoseStoredLengthLeavesTheSlotsSizeClassIsCopied() throws Exception {
    BucketCache cache = offHeap(4);
    // lent for 5,200 bytes (a 9 KiB slot) but stored as 4,097 bytes (a 5 KiB slot)
    TestBlock loaded = read(cache, key(0), BLOCK, 5200 - BLOCK);
    cache.cacheBlockInItsMemory(key(0), loaded, false);
    assertTrue(cache.awaitQueuedWrites(10_000));
    loaded.release();
    assertEquals(5120, cache.usedSlotBytes(), "copied into a 5 KiB slot, the lent one returned");
    Cacheable hit = cache.getBlockRetained(key(0), true, false, true);
    assertEquals(-1, TestBlock.firstMismatch(hit, key(0), BLOCK));
    hit.release();
  }

  @Test
  void aBlockNotReadIntoALentSlotTakesTheQueuedPath() throws Exception {
    BucketCache cache = offHeap(4);
    TestBlock pooled = TestBlock.allocate(allocator, key(0), BLOCK, BlockCategory.DATA);
    cache.cacheBlockInItsMemory(key(0), pooled, false);
    assertTrue(cache.awaitQueuedWrites(10_000));
    pooled.release();
    Cacheable hit = cache.getBlockRetained(key(0), true, false, true);
    assertEquals(-1, TestBlock.firstMismatch(hit, key(0), BLOCK));
    hit.release();
  }

  @Test
  void aFileEngineLendsNothing() throws Exception {
    BucketCache cache =
        cache(
            BucketCacheConfig.of("file:" + directory.resolve("c"), 4 * BUCKET)
                .withBucketSizes(SIZES));
    assertNull(cache.blockMemory(BlockCategory.DATA));
  }

  @Test
  void aFullCacheLendsPooledBuffersAndAWriterFreesSpace() throws Exception {
    BucketCache cache = offHeap(2);
    List<TestBlock> held = new ArrayList<>();
    // readers hold every block, so nothing can be evicted until they let go
    for (int i = 0; i < 14; i++) {
      TestBlock block = read(cache, key(i), BLOCK, TRAILING);
      cache.cacheBlockInItsMemory(key(i), block, false);
      held.add(block);
    }
    long used = cache.usedSlotBytes();
    assertTrue(used <= cache.totalSize());
    TestBlock overflow = read(cache, key(100), BLOCK, TRAILING);
    assertFalse(overflow.buf().owner() instanceof LentSlot, "no slot left to lend");
    assertEquals(-1, TestBlock.firstMismatch(overflow, key(100), BLOCK));
    overflow.release();
    held.forEach(TestBlock::release);
    long deadline = System.nanoTime() + 10_000_000_000L;
    for (int i = 200; cache.stats().snapshot().evictedBlockCount() == 0; i++) {
      assertTrue(System.nanoTime() < deadline, "no writer freed space");
      TestBlock block = read(cache, key(i), BLOCK, TRAILING);
      cache.cacheBlockInItsMemory(key(i), block, false);
      block.release();
      Thread.sleep(1);
    }
    assertTrue(cache.usedSlotBytes() <= cache.totalSize());
  }

  @Test
  void lentSlotEntriesArePersistedAndRestored() throws Exception {
    BucketCacheConfig config =
        BucketCacheConfig.of("pmem:" + directory.resolve("cache.data"), 4 * BUCKET)
            .withBucketSizes(SIZES)
            .withPersistentPath(directory.resolve("cache.index"));
    BucketCache first = BucketCache.create(config, allocator);
    for (int i = 0; i < 5; i++) {
      TestBlock block = read(first, key(i), BLOCK, TRAILING);
      first.cacheBlockInItsMemory(key(i), block, false);
      block.release();
    }
    first.shutdown();
    BucketCache restored = cache(config);
    assertEquals(5, restored.blockCount());
    for (int i = 0; i < 5; i++) {
      Cacheable hit = restored.getBlockRetained(key(i), true, false, true);
      assertNotNull(hit, "block " + i + " restored");
      assertEquals(-1, TestBlock.firstMismatch(hit, key(i), BLOCK));
      hit.release();
    }
    assertEquals(0, restored.snapshot().checksumFailures());
  }

  @Test
  void readersRacingOverASmallCacheAlwaysSeeTheirOwnBytes(TestSeed seed) throws Exception {
    BucketCache cache = offHeap(3);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      SplittableRandom random = new SplittableRandom(seed.value() + t);
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int op = 0; op < 20_000; op++) {
                        BlockCacheKey key = key(random.nextInt(40));
                        Cacheable hit = cache.getBlockRetained(key, true, false, true);
                        if (hit == null) {
                          TestBlock loaded = read(cache, key, BLOCK, TRAILING);
                          cache.cacheBlockInItsMemory(key, loaded, false);
                          hit = loaded;
                        }
                        int mismatch = TestBlock.firstMismatch(hit, key, BLOCK);
                        hit.release();
                        if (mismatch != -1) {
                          throw new AssertionError(key + " served a wrong byte at " + mismatch);
                        }
                        if (random.nextInt(500) == 0) {
                          cache.evictBlock(key);
                        }
                      }
                    } catch (Throwable e) {
                      failure.compareAndSet(null, e);
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a reader failed", failure.get());
    }
    assertTrue(cache.stats().snapshot().evictedBlockCount() > 0, "the cache never filled");
    assertTrue(cache.usedSlotBytes() <= cache.totalSize());
  }
}
