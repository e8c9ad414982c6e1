package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.cache.MissDoorkeeper;
import dev.cellar.cache.TestBlock;
import dev.cellar.config.Settings;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bucket-cache behaviour beyond the common contract: zero copy, slot lifetime, freeing space. */
class BucketCacheTest {

  static final int BLOCK = 4096;
  static final int[] SIZES = SmallBucketCaches.SIZES;
  static final long BUCKET = SmallBucketCaches.BUCKET;

  @TempDir Path directory;

  private SmallBucketCaches caches;
  private BufAllocator allocator;
  private final String file = "bucket-test-" + System.nanoTime();

  @BeforeEach
  void createAllocator() {
    caches = new SmallBucketCaches(8192);
    allocator = caches.allocator;
  }

  @AfterEach
  void shutDown() {
    caches.close();
  }

  private BucketCache cache(String engine, long buckets) throws IOException {
    return caches.create(engine, buckets);
  }

  private BucketCache cache(BucketCacheConfig config) throws IOException {
    return caches.create(config);
  }

  private BlockCacheKey key(long offset) {
    return new BlockCacheKey(file, offset);
  }

  private void put(BucketCache cache, BlockCacheKey key, int size) {
    TestBlock block = TestBlock.allocate(allocator, key, size, BlockCategory.DATA);
    try {
      cache.cacheBlock(key, block, false);
    } finally {
      block.release();
    }
  }

  private static void settle(BucketCache cache) throws InterruptedException {
    assertTrue(cache.awaitQueuedWrites(10_000), "writers did not catch up");
  }

  @Test
  void offHeapHitsAreZeroCopyViewsSharingTheEntryCount() throws Exception {
    BucketCache cache = cache("offheap", 4);
    put(cache, key(0), BLOCK);
    settle(cache);

    Cacheable first = cache.getBlockRetained(key(0), true, false, true);
    Cacheable second = cache.getBlockRetained(key(0), true, false, true);
    assertSame(first, second, "the view is built once per entry");
    assertTrue(first.buf().isDirect());
    assertEquals(3, first.refCnt(), "the index's reference plus two readers");
    assertEquals(-1, TestBlock.firstMismatch(first, key(0), BLOCK));
    first.release();
    second.release();
    assertEquals(1, first.refCnt());
  }

  /**
   * A cache with room takes every block; once its slots are filled past the churn level, a data
   * block at its second miss only, other categories always; the setting turns it off.
   */
  @Test
  void aChurningCacheLetsADataBlockInAtItsSecondMiss() throws Exception {
    BucketCache cache = cache("offheap", 4);
    BlockCacheKey data = new BlockCacheKey(file, 1L << 40, BlockCategory.DATA);
    BlockCacheKey index = new BlockCacheKey(file, 1L << 41, BlockCategory.INDEX);
    assertTrue(cache.admitsOnMiss(data), "a cache with room takes every block");
    assertTrue(cache.admitsOnMiss(data), "and remembers none of its misses");
    long offset = 0;
    while (cache.snapshot().usedSize() < cache.snapshot().capacity() * 0.76) {
      put(cache, key(offset), BLOCK);
      settle(cache);
      offset += BLOCK;
      assertTrue(offset < 64 * BLOCK, "the cache never filled: " + cache.snapshot());
    }
    assertFalse(cache.admitsOnMiss(data), "a first miss is only recorded");
    assertTrue(cache.admitsOnMiss(data), "the second is let in");
    assertTrue(cache.admitsOnMiss(index), "blocks other than data are always taken");

    BucketCacheConfig off =
        BucketCacheConfig.from(
            Settings.of(
                Map.of(
                    BucketCacheConfig.IOENGINE_KEY,
                    "offheap",
                    BucketCacheConfig.SIZE_KEY,
                    "1",
                    MissDoorkeeper.ENABLED_KEY,
                    "false")));
    assertFalse(off.doorkeeper());
    assertTrue(
        BucketCacheConfig.from(
                Settings.of(
                    Map.of(
                        BucketCacheConfig.IOENGINE_KEY,
                        "offheap",
                        BucketCacheConfig.SIZE_KEY,
                        "1")))
            .doorkeeper(),
        "on by default");
    BucketCache without =
        cache(
            new BucketCacheConfig(
                off.ioEngine(),
                cache.snapshot().capacity(),
                SIZES,
                off.writerThreads(),
                off.writerQueueLength(),
                off.acceptFactor(),
                off.minFactor(),
                off.extraFreeFactor(),
                off.singleFactor(),
                off.multiFactor(),
                off.memoryFactor(),
                null,
                off.persistIntervalMillis(),
                off.queueAdditionWaitMillis(),
                off.ioErrorsToleratedMillis(),
                false));
    for (offset = 0; offset < 24 * BLOCK; offset += BLOCK) {
      put(without, key(offset), BLOCK);
      settle(without);
    }
    assertTrue(
        without.snapshot().usedSize() >= without.snapshot().capacity() * 0.76,
        without.snapshot().toString());
    assertTrue(without.admitsOnMiss(data), "without a doorkeeper every block is taken");
  }

  @Test
  void fileEngineHitsAreCopiesTheReaderOwns() throws Exception {
    BucketCache cache = cache("file:" + directory.resolve("c"), 4);
    put(cache, key(0), BLOCK);
    settle(cache);

    Cacheable first = cache.getBlockRetained(key(0), true, false, true);
    Cacheable second = cache.getBlockRetained(key(0), true, false, true);
    assertFalse(first == second);
    assertEquals(1, first.refCnt());
    assertEquals(-1, TestBlock.firstMismatch(first, key(0), BLOCK));
    first.release();
    second.release();
    assertEquals(2, cache.snapshot().stats().hitCount());
    assertEquals(2, cache.snapshot().ioHitCount());
  }

  @Test
  void anEvictedSlotIsFreedOnlyWhenTheLastReaderReleases() throws Exception {
    BucketCache cache = cache("offheap", 4);
    put(cache, key(0), BLOCK);
    settle(cache);
    long used = cache.usedSlotBytes();
    assertEquals(5120, used);

    Cacheable held = cache.getBlockRetained(key(0), true, false, true);
    assertTrue(cache.evictBlock(key(0)));
    assertNull(cache.getBlockRetained(key(0), true, false, true));
    assertEquals(used, cache.usedSlotBytes(), "a held slot must not be reused");
    put(cache, key(1), BLOCK);
    settle(cache);
    assertEquals(-1, TestBlock.firstMismatch(held, key(0), BLOCK), "held bytes unchanged");
    held.release();
    assertEquals(5120, cache.usedSlotBytes(), "only the new block's slot remains");
  }

  @Test
  void blocksLargerThanTheLargestSlotAreRefusedAndCounted() throws Exception {
    BucketCache cache = cache("offheap", 4);
    put(cache, key(0), 9216);
    assertEquals(1, cache.stats().snapshot().failedInsertions());
    assertFalse(cache.containsBlock(key(0)));
    put(cache, key(1), 9215);
    settle(cache);
    assertTrue(cache.containsBlock(key(1)));
  }

  @Test
  void fillingPastCapacityFreesSpaceAndKeepsBlocksReadAgain() throws Exception {
    BucketCache cache = cache("offheap", 8);
    BlockCacheKey hot = key(0);
    put(cache, hot, BLOCK);
    settle(cache);
    for (int i = 1; i <= 200; i++) {
      put(cache, key(i * 10_000L), BLOCK);
      settle(cache);
      Cacheable block = cache.getBlockRetained(hot, true, false, true);
      assertNotNull(block, "the block read after every insert was evicted at insert " + i);
      block.release();
    }
    BucketCacheSnapshot snapshot = cache.snapshot();
    assertTrue(snapshot.stats().evictionCount() > 0, "no freeSpace run");
    assertTrue(snapshot.stats().evictedBlockCount() > 0, "nothing evicted");
    assertTrue(snapshot.usedSize() <= snapshot.capacity());
    assertTrue(snapshot.blockCount() < 200);
  }

  @Test
  void blocksOfOneSizeTakeTheEmptyBucketOfAnotherSizeBeforeAnythingIsEvicted() throws Exception {
    // Bucket 0 serves 5 KiB slots and buckets 1 to 9 the 9 KiB ones: 36 slots, and 38 fit under
    // the accept factor once the empty 5 KiB bucket is taken too.
    BucketCache cache = cache("offheap", 10);
    int blocks = 38;
    for (int i = 0; i < blocks; i++) {
      put(cache, key(i * 10_000L), 8000);
      settle(cache);
    }
    BucketCacheSnapshot snapshot = cache.snapshot();
    assertEquals(0, snapshot.stats().evictedBlockCount());
    assertEquals(blocks, snapshot.blockCount());
    for (int i = 0; i < blocks; i++) {
      Cacheable block = cache.getBlockRetained(key(i * 10_000L), true, false, true);
      assertNotNull(block, "block " + i);
      block.release();
    }
  }

  @Test
  void freeSpaceSkipsBlocksReadersHold() throws Exception {
    BucketCache cache = cache("offheap", 2);
    List<Cacheable> held = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      put(cache, key(i), BLOCK);
      settle(cache);
      held.add(cache.getBlockRetained(key(i), true, false, true));
    }
    for (int i = 100; i < 140; i++) {
      put(cache, key(i), BLOCK);
      settle(cache);
    }
    for (int i = 0; i < 6; i++) {
      assertTrue(cache.containsBlock(key(i)), "held block " + i + " was evicted");
      assertEquals(-1, TestBlock.firstMismatch(held.get(i), key(i), BLOCK));
      held.get(i).release();
    }
  }

  @Test
  void evictBlocksByHfileNameRemovesWrittenAndQueuedBlocks() throws Exception {
    BucketCache cache = cache("offheap", 4);
    for (int i = 0; i < 5; i++) {
      put(cache, key(i), BLOCK);
    }
    put(cache, new BlockCacheKey(file + "-other", 0), BLOCK);
    assertEquals(5, cache.evictBlocksByHfileName(file));
    settle(cache);
    assertEquals(1, cache.blockCount());
    assertEquals(5120, cache.usedSlotBytes());
  }

  @Test
  void bucketSizesTooFewForTheCapacityAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> cache(BucketCacheConfig.of("offheap", BUCKET).withBucketSizes(SIZES)));
    assertTrue(e.getMessage().contains("at least"), e.getMessage());
  }

  @Test
  void snapshotReportsPerSizeClassUsage() throws Exception {
    BucketCache cache = cache("offheap", 4);
    put(cache, key(0), BLOCK);
    put(cache, key(1), 8000);
    settle(cache);
    BucketCacheSnapshot snapshot = cache.snapshot();
    assertEquals(2, snapshot.sizeClasses().size());
    assertEquals(1, snapshot.sizeClasses().get(0).usedSlots());
    assertEquals(1, snapshot.sizeClasses().get(1).usedSlots());
    assertEquals(5120 - 4097 + 9216 - 8001, snapshot.fragmentationBytes());
    assertEquals(4097 + 8001, snapshot.realCacheSize());
    assertEquals(5120 + 9216, snapshot.usedSize());
    assertEquals("offheap", snapshot.ioEngine());
  }

  @Test
  void aWriterThatFailsOnOneBlockDropsItAndKeepsWriting() throws Exception {
    BucketCache cache = cache("offheap", 4);
    TestBlock poisoned = TestBlock.allocate(allocator, key(0), BLOCK, BlockCategory.DATA);
    try {
      cache.cacheBlock(key(0), new UnwritableBlock(poisoned), false);
    } finally {
      poisoned.release();
    }
    settle(cache);
    assertNull(cache.getBlockRetained(key(0), true, false, true), "the block is dropped");
    put(cache, key(0), BLOCK);
    settle(cache);
    assertEquals(1, cache.liveEntries(), "the same key's writer wrote the next block");
    Cacheable written = cache.getBlockRetained(key(0), true, false, true);
    assertEquals(-1, TestBlock.firstMismatch(written, key(0), BLOCK));
    written.release();
  }

  /** A block a bucket writer cannot serialize: its write throws a runtime exception. */
  private record UnwritableBlock(TestBlock inner) implements Cacheable {
    @Override
    public Buf buf() {
      return inner.buf();
    }

    @Override
    public long heapSize() {
      return inner.heapSize();
    }

    @Override
    public BlockCategory category() {
      return inner.category();
    }

    @Override
    public Cacheable withBuf(Buf buf) {
      return inner.withBuf(buf);
    }

    @Override
    public CacheableDeserializer deserializer() {
      if (Thread.currentThread().getName().startsWith(BucketCache.WRITER_THREAD_PREFIX)) {
        throw new IllegalStateException("injected failure serializing the block");
      }
      return inner.deserializer();
    }

    @Override
    public void writeMetadata(Buf dst, int index) {
      inner.writeMetadata(dst, index);
    }
  }
}
