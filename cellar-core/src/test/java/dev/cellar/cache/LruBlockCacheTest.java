package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufSource;
import dev.cellar.memory.RecycledHeapArrays;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class LruBlockCacheTest extends BlockCacheContractTest {

  /** What one cached test block of {@link #BLOCK_SIZE} bytes costs in the cache's accounting. */
  private static final long COST =
      BLOCK_SIZE + TestBlock.OBJECT_OVERHEAD + LruBlockCache.ENTRY_OVERHEAD;

  private final String file = "lru-" + System.nanoTime();

  @Override
  protected BlockCache newCache(long capacity) {
    return new LruBlockCache(LruBlockCacheConfig.withCapacity(capacity), Runnable::run);
  }

  private BlockCacheKey lruKey(long offset) {
    return new BlockCacheKey(file, offset);
  }

  private static void putHeap(BlockCache cache, BlockCacheKey key, boolean inMemory) {
    cache.cacheBlock(key, TestBlock.onHeap(key, BLOCK_SIZE, BlockCategory.DATA), inMemory);
  }

  private static void read(BlockCache cache, BlockCacheKey key) {
    cache.getBlockRetained(key, true, false, true).release();
  }

  @Test
  void aCachedOffHeapBlockIsCopiedToTheHeapAndPinsNoPooledMemory() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    BlockCacheKey key = lruKey(0);
    TestBlock source = TestBlock.allocate(allocator, key, BLOCK_SIZE, BlockCategory.DATA);
    assertTrue(source.buf().isDirect());
    cache.cacheBlock(key, source, false);
    assertEquals(1, source.refCnt());
    source.release();
    assertEquals(0, allocator.stats().usedBufferCount());

    Cacheable held = cache.getBlockRetained(key, true, false, true);
    assertFalse(held.buf().isDirect());
    assertEquals(2, held.refCnt());
    assertTrue(cache.evictBlock(key));
    assertEquals(1, held.refCnt());
    assertEquals(-1, TestBlock.firstMismatch(held, key, BLOCK_SIZE));
    assertTrue(held.release());
  }

  @Test
  void aHeapBlockIsRetainedNotCopied() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    BlockCacheKey key = lruKey(1);
    TestBlock source = TestBlock.onHeap(key, BLOCK_SIZE, BlockCategory.DATA);
    cache.cacheBlock(key, source, false);
    assertEquals(2, source.refCnt());

    Cacheable held = cache.getBlockRetained(key, true, false, true);
    assertSame(source, held);
    assertEquals(3, held.refCnt());
    held.release();
    assertEquals(COST, cache.size());
  }

  /**
   * A data block read into the cache's reusable memory is kept as it is; once evicted and freed,
   * the slot's next read gets the same buffer, and an entry of the old block (a lookup racing the
   * eviction) no longer retains it, leaving its count as it found it.
   */
  @Test
  void anEntryRetainsABlockOfAReusableSlotOnlyInItsGeneration() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    BlockCacheKey key = lruKey(4);
    BufSource memory = cache.blockMemory(BlockCategory.DATA);
    int size = RecycledHeapArrays.MIN_POOLED + 1000;
    Buf read = memory.takeAtLeastRetained(size);
    for (int i = 0; i < size; i++) {
      read.putByte(i, TestBlock.expected(key, i));
    }
    TestBlock block = new TestBlock(read, BlockCategory.DATA);
    cache.cacheBlockInItsMemory(key, block, false);
    LruEntry stale = new LruEntry(key, block, COST, BlockPriority.SINGLE, 0);
    Cacheable hit = cache.getBlockRetained(key, true, false, true);
    assertSame(block, hit, "kept as it is");
    hit.release();
    assertTrue(stale.tryRetainBlock(), "the same generation");
    block.release();
    block.release();
    assertTrue(cache.evictBlock(key));
    assertEquals(0, read.refCnt());

    Buf next = memory.takeAtLeastRetained(size);
    assertSame(read, next, "the slot's buffer, handed out anew");
    assertFalse(stale.tryRetainBlock(), "an entry of the block before");
    assertEquals(1, next.refCnt());
    next.release();
  }

  @Test
  void aHeapBlockSlicedFromALargerArrayIsCopiedToItsOwnSize() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    BlockCacheKey key = lruKey(2);
    Buf read = Buf.wrap(new byte[BLOCK_SIZE + 53]);
    for (int i = 0; i < BLOCK_SIZE; i++) {
      read.putByte(i, TestBlock.expected(key, i));
    }
    TestBlock source = new TestBlock(read.slice(0, BLOCK_SIZE), BlockCategory.DATA);
    cache.cacheBlock(key, source, false);
    assertEquals(1, source.refCnt(), "the cache did not keep the larger array");

    Cacheable held = cache.getBlockRetained(key, true, false, true);
    assertNotSame(source, held);
    assertEquals(BLOCK_SIZE, ((byte[]) held.buf().segment().heapBase().orElseThrow()).length);
    assertEquals(-1, TestBlock.firstMismatch(held, key, BLOCK_SIZE));
    held.release();
    assertEquals(COST, cache.size());
  }

  @Test
  void aBlockReadIntoTheCachesOwnMemoryIsKeptAsItIsWithItsArrayCounted() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    BlockCacheKey key = lruKey(3);
    BufSource memory = cache.blockMemory(BlockCategory.DATA);
    int readLength = BLOCK_SIZE + 53;
    Buf read = memory.takeRetained(readLength);
    for (int i = 0; i < BLOCK_SIZE; i++) {
      read.putByte(i, TestBlock.expected(key, i));
    }
    TestBlock source = new TestBlock(read.slice(0, BLOCK_SIZE), BlockCategory.DATA);
    cache.cacheBlockInItsMemory(key, source, false);
    assertEquals(2, source.refCnt(), "the cache kept the buffer read");

    Cacheable held = cache.getBlockRetained(key, true, false, true);
    assertSame(source, held);
    assertEquals(-1, TestBlock.firstMismatch(held, key, BLOCK_SIZE));
    held.release();
    int arrayLength = RecycledHeapArrays.arrayLength(read);
    assertTrue(arrayLength >= readLength, "array " + arrayLength);
    assertEquals(COST + arrayLength - BLOCK_SIZE, cache.size(), "the whole array counted");
    source.release();
  }

  @Test
  void aSecondReadPromotesSingleToMultiAndInMemoryStaysMemory() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    putHeap(cache, lruKey(0), false);
    putHeap(cache, lruKey(1), true);
    assertEquals(BlockPriority.SINGLE, cache.priority(lruKey(0)));
    assertEquals(BlockPriority.MEMORY, cache.priority(lruKey(1)));

    read(cache, lruKey(0));
    read(cache, lruKey(1));
    assertEquals(BlockPriority.MULTI, cache.priority(lruKey(0)));
    assertEquals(BlockPriority.MEMORY, cache.priority(lruKey(1)));
  }

  @Test
  void aPeekRetainsTheCopyWithoutCountingOrPromotingIt() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    putHeap(cache, lruKey(0), false);
    CacheStats.Snapshot before = cache.stats().snapshot();
    Cacheable peeked = cache.peekBlockRetained(lruKey(0));
    int held = peeked.refCnt();
    peeked.release();
    assertEquals(held - 1, peeked.refCnt(), "the peek added one reference, for the caller");
    assertEquals(BlockPriority.SINGLE, cache.priority(lruKey(0)));
    CacheStats.Snapshot after = cache.stats().snapshot();
    assertEquals(before.hitCount(), after.hitCount());
    assertEquals(before.missCount(), after.missCount());
    assertNull(cache.peekBlockRetained(lruKey(1)));
  }

  @Test
  void evictionFreesDownToMinSharingTheWorkByOverflow() {
    LruBlockCache cache = (LruBlockCache) cache(100 * COST);
    LruBlockCacheConfig config = cache.config();
    for (int i = 0; i < 60; i++) {
      putHeap(cache, lruKey(i), false);
    }
    for (int i = 0; i < 60; i++) {
      read(cache, lruKey(i));
    }
    for (int i = 60; i < 99; i++) {
      putHeap(cache, lruKey(i), false);
    }
    assertEquals(0, cache.stats().snapshot().evictionCount());
    putHeap(cache, lruKey(99), false);

    long bytesToFree = 100 * COST - config.minSize();
    long multiShare = Math.min(60 * COST - config.targetSize(BlockPriority.MULTI), bytesToFree / 2);
    long multiEvicted = Math.ceilDiv(multiShare, COST);
    long singleShare =
        Math.min(
            40 * COST - config.targetSize(BlockPriority.SINGLE), bytesToFree - multiEvicted * COST);
    long singleEvicted = Math.ceilDiv(singleShare, COST);
    assertTrue(multiEvicted > 0 && singleEvicted > 0);

    for (int i = 0; i < 60; i++) {
      assertEquals(i >= multiEvicted, cache.containsBlock(lruKey(i)), "multi block " + i);
    }
    for (int i = 60; i < 100; i++) {
      assertEquals(i - 60 >= singleEvicted, cache.containsBlock(lruKey(i)), "single block " + i);
    }
    CacheStats.Snapshot stats = cache.stats().snapshot();
    assertEquals(1, stats.evictionCount());
    assertEquals(multiEvicted + singleEvicted, stats.evictedBlockCount());
    assertTrue(cache.size() <= config.minSize(), "size " + cache.size());
  }

  @Test
  void inMemoryBlocksWithinTheirShareSurviveEviction() {
    LruBlockCache cache = (LruBlockCache) cache(100 * COST);
    for (int i = 0; i < 20; i++) {
      putHeap(cache, lruKey(i), true);
    }
    for (int i = 20; i < 100; i++) {
      putHeap(cache, lruKey(i), false);
    }
    assertEquals(1, cache.stats().snapshot().evictionCount());
    for (int i = 0; i < 20; i++) {
      assertTrue(cache.containsBlock(lruKey(i)), "in-memory block " + i);
    }
    assertFalse(cache.containsBlock(lruKey(20)));
    assertTrue(cache.containsBlock(lruKey(99)));
    assertTrue(cache.size() <= cache.config().minSize());
  }

  private LruBlockCache forced(boolean forceInMemory) {
    LruBlockCacheConfig config =
        LruBlockCacheConfig.from(
            Settings.of(
                Map.of(
                    LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, String.valueOf(100 * COST),
                    LruBlockCacheConfig.FORCE_IN_MEMORY_KEY, String.valueOf(forceInMemory))));
    LruBlockCache cache = new LruBlockCache(config, Runnable::run);
    for (int i = 0; i < 30; i++) {
      putHeap(cache, lruKey(i), true);
    }
    for (int i = 30; i < 100; i++) {
      putHeap(cache, lruKey(i), false);
    }
    return cache;
  }

  private static long cachedBetween(BlockCache cache, String file, int from, int to) {
    long count = 0;
    for (int i = from; i < to; i++) {
      if (cache.containsBlock(new BlockCacheKey(file, i))) {
        count++;
      }
    }
    return count;
  }

  @Test
  void inMemoryBlocksAboveTheirShareAreEvictedUnlessForced() {
    LruBlockCache normal = forced(false);
    LruBlockCache force = forced(true);
    try {
      assertTrue(cachedBetween(normal, file, 0, 30) < 30, "normal mode frees memory overflow");
      assertEquals(30, cachedBetween(force, file, 0, 30), "force mode spares in-memory blocks");
      assertTrue(force.size() <= force.config().minSize());
      assertFalse(force.containsBlock(lruKey(30)));
      assertTrue(force.containsBlock(lruKey(99)));
    } finally {
      normal.shutdown();
      force.shutdown();
    }
  }

  @Test
  void forcedModeEvictsInMemoryBlocksOnceNothingElseIsLeft() {
    LruBlockCacheConfig config =
        LruBlockCacheConfig.from(
            Settings.of(
                Map.of(
                    LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY,
                    String.valueOf(100 * COST),
                    LruBlockCacheConfig.FORCE_IN_MEMORY_KEY,
                    "true")));
    LruBlockCache cache = new LruBlockCache(config, Runnable::run);
    for (int i = 0; i < 98; i++) {
      putHeap(cache, lruKey(i), true);
    }
    putHeap(cache, lruKey(98), false);
    putHeap(cache, lruKey(99), false);
    assertEquals(0, cachedBetween(cache, file, 98, 100));
    assertFalse(cache.containsBlock(lruKey(0)));
    assertTrue(cache.containsBlock(lruKey(97)));
    assertTrue(cache.size() <= config.minSize());
    cache.shutdown();
  }

  @Test
  void insertsAtTheHardLimitAreRefusedUntilEvictionRuns() {
    Queue<Runnable> pending = new ArrayDeque<>();
    Executor manual = pending::add;
    LruBlockCache cache = new LruBlockCache(LruBlockCacheConfig.withCapacity(100 * COST), manual);
    try {
      int inserted = 0;
      while (cache.size() < cache.config().hardLimitSize()) {
        putHeap(cache, lruKey(inserted++), false);
      }
      assertEquals(inserted, cache.blockCount());
      putHeap(cache, lruKey(inserted), false);
      assertFalse(cache.containsBlock(lruKey(inserted)));
      assertEquals(1, cache.stats().snapshot().failedInsertions());
      assertEquals(1, pending.size(), "one eviction pending at most");

      pending.poll().run();
      assertTrue(cache.size() <= cache.config().minSize());
      putHeap(cache, lruKey(inserted), false);
      assertTrue(cache.containsBlock(lruKey(inserted)));
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void blocksAboveTheMaxBlockSizeAreRefused() {
    LruBlockCacheConfig config =
        LruBlockCacheConfig.from(
            Settings.of(
                Map.of(
                    LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, String.valueOf(ROOMY),
                    LruBlockCacheConfig.MAX_BLOCK_SIZE_KEY, String.valueOf(BLOCK_SIZE))));
    LruBlockCache cache = new LruBlockCache(config, Runnable::run);
    putHeap(cache, lruKey(0), false);
    assertEquals(0, cache.blockCount());
    assertEquals(1, cache.stats().snapshot().failedInsertions());
    cache.shutdown();
  }

  @Test
  void theDefaultCacheEvictsOnItsNamedBackgroundThread() throws InterruptedException {
    LruBlockCache cache = LruBlockCache.create(LruBlockCacheConfig.withCapacity(100 * COST));
    try {
      for (int i = 0; i < 110; i++) {
        putHeap(cache, lruKey(i), false);
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (cache.stats().snapshot().evictionCount() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertTrue(cache.stats().snapshot().evictionCount() > 0);
      assertTrue(
          Thread.getAllStackTraces().keySet().stream()
              .anyMatch(t -> t.getName().equals(LruBlockCache.EVICTION_THREAD_NAME)));
      assertTrue(cache.blockCount() < 110);
    } finally {
      cache.shutdown();
    }
    assertEquals(0, cache.blockCount());
    assertThrows(IllegalStateException.class, () -> putHeap(cache, lruKey(0), false));
  }

  @Test
  void capacityComesFromTheHeapFractionOrTheByteSize() {
    long heap = 1L << 30;
    assertEquals((long) (heap * 0.4), LruBlockCacheConfig.from(Settings.empty(), heap).maxSize());
    assertEquals(
        (long) (heap * 0.25),
        LruBlockCacheConfig.from(
                Settings.of(Map.of(LruBlockCacheConfig.CACHE_SIZE_KEY, "0.25")), heap)
            .maxSize());
    assertEquals(
        12345,
        LruBlockCacheConfig.from(
                Settings.of(
                    Map.of(
                        LruBlockCacheConfig.CACHE_SIZE_KEY, "0.25",
                        LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, "12345")),
                heap)
            .maxSize());
    assertEquals(
        2L << 30,
        LruBlockCacheConfig.from(
                Settings.of(Map.of(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, "2g")), heap)
            .maxSize());
    LruBlockCacheConfig defaults = LruBlockCacheConfig.from(Settings.empty(), heap);
    assertEquals(0.25, defaults.singleFactor());
    assertEquals(0.50, defaults.multiFactor());
    assertEquals(0.25, defaults.memoryFactor());
    assertEquals(0.99, defaults.acceptableFactor());
    assertEquals(0.95, defaults.minFactor());
    assertEquals(1.2, defaults.hardCapacityLimitFactor());
    assertEquals(16L * 1024 * 1024, defaults.maxBlockSize());
  }

  @Test
  void invalidSettingsNameTheirKey() {
    assertInvalid(LruBlockCacheConfig.CACHE_SIZE_KEY, "1.5");
    assertInvalid(LruBlockCacheConfig.CACHE_SIZE_KEY, "0");
    assertInvalid(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, "-1");
    assertInvalid(LruBlockCacheConfig.SINGLE_PERCENTAGE_KEY, "0.5");
    assertInvalid(LruBlockCacheConfig.MULTI_PERCENTAGE_KEY, "-0.1");
    assertInvalid(LruBlockCacheConfig.ACCEPTABLE_FACTOR_KEY, "1.0");
    assertInvalid(LruBlockCacheConfig.MIN_FACTOR_KEY, "0.995");
    assertInvalid(LruBlockCacheConfig.HARD_CAPACITY_LIMIT_FACTOR_KEY, "0.9");
    assertInvalid(LruBlockCacheConfig.MAX_BLOCK_SIZE_KEY, "0");
    assertInvalid(LruBlockCacheConfig.MEMORY_PERCENTAGE_KEY, "a quarter");
  }

  private static void assertInvalid(String key, String value) {
    InvalidConfigException e =
        assertThrows(
            InvalidConfigException.class,
            () -> LruBlockCacheConfig.from(Settings.of(Map.of(key, value)), 1L << 30));
    assertEquals(key, e.key(), e.getMessage());
  }

  @Test
  void anEvictedHeldBlockIsNotSharedWithALaterInsert() {
    LruBlockCache cache = (LruBlockCache) cache(ROOMY);
    BlockCacheKey key = lruKey(5);
    putHeap(cache, key, false);
    Cacheable held = cache.getBlockRetained(key, true, false, true);
    cache.evictBlock(key);
    putHeap(cache, key, false);
    Cacheable fresh = cache.getBlockRetained(key, true, false, true);
    assertNotSame(held, fresh);
    held.release();
    fresh.release();
  }

  /** A block of {@code size} bytes sliced from a larger array, so the cache must copy it. */
  private static TestBlock slicedBlock(BlockCacheKey key, int size) {
    Buf read = Buf.wrap(new byte[size + 53]);
    for (int i = 0; i < size; i++) {
      read.putByte(i, TestBlock.expected(key, i));
    }
    return new TestBlock(read.slice(0, size), BlockCategory.DATA);
  }

  @Test
  void churningBlocksReuseTheArraysOfEvictedOnes() {
    int size = 40_000;
    LruBlockCache cache = (LruBlockCache) cache(20L * size);
    IdentityHashMap<Object, Boolean> arrays = new IdentityHashMap<>();
    for (int i = 0; i < 400; i++) {
      BlockCacheKey key = lruKey(1000 + i);
      TestBlock source = slicedBlock(key, size);
      cache.cacheBlock(key, source, false);
      source.release();
      Cacheable held = cache.getBlockRetained(key, true, false, true);
      if (held != null) {
        assertEquals(-1, TestBlock.firstMismatch(held, key, size));
        arrays.put(held.buf().segment().heapBase().orElseThrow(), true);
        held.release();
      }
    }
    assertTrue(arrays.size() <= 30, "distinct arrays for 400 blocks: " + arrays.size());
    assertTrue(cache.size() <= 20L * size, "size " + cache.size());
  }
}
