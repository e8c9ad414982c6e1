package dev.cellar.hfile;

import static dev.cellar.hfile.CachedReadFixture.PE_BLOCK;
import static dev.cellar.hfile.CachedReadFixture.PE_ROWS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.bucket.BucketCacheConfig;
import dev.cellar.cache.bucket.BucketCacheSnapshot;
import dev.cellar.cache.bucket.SizeClassStats;
import dev.cellar.cache.tiered.BlockCacheFactory;
import dev.cellar.cache.tiered.CombinedBlockCache;
import dev.cellar.config.Settings;
import dev.cellar.hfile.CachedReadFixture.Rows;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.memory.BufAllocatorStats;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading HFiles through the combined cache the factory builds (an LRU L1 for index and bloom
 * blocks, a BucketCache L2 for data blocks) on each L2 engine: data blocks come back from the L2 as
 * HFile blocks rebuilt from their stored bytes, and concurrent seeks through an L2 far smaller than
 * the file return the right cells while it evicts. Blocks of HBase PerformanceEvaluation's shape,
 * just over the 65 KiB pool buffer, are read into pooled memory and take 68 KiB slots, also across
 * a restart of a persistent L2.
 */
@ExtendWith(TestSeedExtension.class)
class TieredCacheReadTest {

  private static final int CELLS = 40_000;

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private final List<BlockCache> caches = new ArrayList<>();

  @AfterEach
  void shutDown() {
    caches.forEach(BlockCache::shutdown);
    assertEquals(0, allocator.stats().usedBufferCount(), "every pooled buffer came back");
    allocator.close();
  }

  private String engine(String name) {
    return switch (name) {
      case "file" -> "file:" + dir.resolve("l2.data");
      case "mmap" -> "mmap:" + dir.resolve("l2.mmap");
      default -> name;
    };
  }

  private CombinedBlockCache cache(String engine, String sizeMiB) throws IOException {
    return cache(
        Map.of(
            "hbase.bucketcache.ioengine",
            engine(engine),
            "hbase.bucketcache.size",
            sizeMiB,
            "hbase.bucketcache.bucket.sizes",
            "5120,9216,17408,33792"));
  }

  /** A combined cache of a 16 MiB L1 and an L2 with the given settings. */
  private CombinedBlockCache cache(Map<String, String> l2) throws IOException {
    Map<String, String> settings = new HashMap<>(l2);
    settings.put("hfile.block.cache.memory.size", "16m");
    BlockCache cache = BlockCacheFactory.create(Settings.of(settings), allocator).orElseThrow();
    caches.add(cache);
    return (CombinedBlockCache) cache;
  }

  /** Settings of a 64 MiB L2 on {@code engine} with the default bucket sizes. */
  private Map<String, String> defaultSizedL2(String engine) {
    return Map.of("hbase.bucketcache.ioengine", engine(engine), "hbase.bucketcache.size", "64");
  }

  /** {@link #defaultSizedL2} on a file, persisting its index for a warm restart. */
  private CombinedBlockCache persistentFileCache() throws IOException {
    Map<String, String> l2 = new HashMap<>(defaultSizedL2("file"));
    l2.put("hbase.bucketcache.persistent.path", dir.resolve("l2.index").toString());
    return cache(l2);
  }

  private Path write() throws IOException {
    return CachedReadFixture.write(
        dir.resolve("tiered.hfile"),
        HFileContext.builder()
            .blockSize(8192)
            .indexBlockMaxSize(1024)
            .encoding(DataBlockEncoding.FAST_DIFF)
            .compression(Compression.LZ4)
            .build(),
        Rows.NUMBERED,
        CELLS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"offheap", "heap", "file", "mmap"})
  void aSecondScanReadsDataBlocksBackFromTheL2(String engine) throws Exception {
    Path path = write();
    CombinedBlockCache cache = cache(engine, "64");
    try (HFileReader reader = CachedReadFixture.open(path, allocator, cache)) {
      assertEquals(CELLS, CachedReadFixture.scan(reader, Rows.NUMBERED, true));
      assertTrue(((BucketCache) cache.l2()).awaitQueuedWrites(10_000));
      long dataMisses = cache.stats().snapshot().misses(BlockCategory.DATA);
      assertEquals(CELLS, CachedReadFixture.scan(reader, Rows.NUMBERED, true));
      CacheStats.Snapshot stats = cache.stats().snapshot();
      assertEquals(
          dataMisses, stats.misses(BlockCategory.DATA), "the second scan missed: " + stats);
      assertTrue(stats.hits(BlockCategory.DATA) >= dataMisses - 1, stats.toString());
      assertTrue(cache.l1().blockCount() > 0, "index blocks in the L1");
      assertTrue(cache.l2().stats().snapshot().hitCount() > 0, "data blocks from the L2");
    }
  }

  /**
   * Scans the file, checking every cell, and asserts that no block was read onto the heap.
   *
   * @return bytes handed out from large pooled buffers during the scan
   */
  private long scanInPooledMemory(HFileReader reader, Rows rows, BucketCache l2) throws Exception {
    allocator.heapAllocationRatioSinceLastCall();
    long heapBefore = allocator.stats().heapAllocationBytes();
    long largeBefore = allocator.stats().largeBuffers().allocatedBytes();
    assertEquals(PE_ROWS, CachedReadFixture.scan(reader, rows, true));
    assertTrue(l2.awaitQueuedWrites(10_000));
    BufAllocatorStats stats = allocator.stats();
    assertEquals(heapBefore, stats.heapAllocationBytes(), stats.toString());
    assertEquals(0, allocator.heapAllocationRatioSinceLastCall(), stats.toString());
    assertEquals(0, stats.usedBufferCount(), "no pooled buffer is held after the scan");
    return stats.largeBuffers().allocatedBytes() - largeBefore;
  }

  /** Asserts that every data block in the L2 took a 68 KiB slot, with little left over. */
  private static void assertInOvershootSlots(BucketCache l2, int blocks) {
    BucketCacheSnapshot snapshot = l2.snapshot();
    assertEquals(blocks, snapshot.blockCount(), snapshot.toString());
    for (SizeClassStats sizeClass : snapshot.sizeClasses()) {
      boolean overshoot = sizeClass.itemSize() == BucketCacheConfig.OVERSHOOT_BUCKET_SIZE;
      assertEquals(overshoot ? blocks : 0, sizeClass.usedSlots(), sizeClass.toString());
      if (overshoot) {
        assertTrue(
            sizeClass.fragmentationBytes() < 0.05 * sizeClass.usedBytes(),
            "under 5% of each slot is left over: " + sizeClass);
      }
    }
  }

  @ParameterizedTest
  @CsvSource({
    "offheap, NONE, 1000, 24",
    "offheap, ROW_INDEX_V1, 1176, 28",
    "file, NONE, 1000, 24",
    "file, ROW_INDEX_V1, 1176, 28"
  })
  void blocksJustOverThePoolBufferTakeATightSlot(
      String engine, DataBlockEncoding encoding, int valueLength, int blocks) throws Exception {
    Path path = CachedReadFixture.writePerformanceEvaluation(dir, encoding, valueLength);
    Rows rows = Rows.performanceEvaluation(valueLength);
    CombinedBlockCache cache = cache(defaultSizedL2(engine));
    BucketCache l2 = (BucketCache) cache.l2();
    try (HFileReader reader = CachedReadFixture.open(path, allocator, cache)) {
      long read = scanInPooledMemory(reader, rows, l2);
      if (engine.equals("file")) {
        assertTrue(
            read >= (long) PE_BLOCK * blocks,
            "every data block was read into a large pooled buffer");
      } else {
        assertEquals(0, read, "every data block was read straight into a slot the L2 lent");
      }
      assertInOvershootSlots(l2, blocks);

      long dataMisses = cache.stats().snapshot().misses(BlockCategory.DATA);
      long copied = scanInPooledMemory(reader, rows, l2);
      if (engine.equals("file")) {
        assertTrue(copied >= (long) PE_BLOCK * blocks, "hits read into large pooled buffers");
      } else {
        assertEquals(0, copied, "off-heap hits are views of the cache's memory");
      }
      CacheStats.Snapshot stats = cache.stats().snapshot();
      assertEquals(
          dataMisses, stats.misses(BlockCategory.DATA), "the second scan missed: " + stats);
      assertTrue(l2.stats().snapshot().hitCount() >= blocks, l2.snapshot().toString());
    }
  }

  @ParameterizedTest
  @CsvSource({"NONE, 1000, 24", "ROW_INDEX_V1, 1176, 28"})
  void blocksJustOverThePoolBufferSurviveARestartOfAPersistentFileL2(
      DataBlockEncoding encoding, int valueLength, int blocks) throws Exception {
    Path path = CachedReadFixture.writePerformanceEvaluation(dir, encoding, valueLength);
    Rows rows = Rows.performanceEvaluation(valueLength);
    CombinedBlockCache before = persistentFileCache();
    try (HFileReader reader = CachedReadFixture.open(path, allocator, before)) {
      scanInPooledMemory(reader, rows, (BucketCache) before.l2());
    }
    before.shutdown();
    caches.remove(before);

    CombinedBlockCache after = persistentFileCache();
    BucketCache l2 = (BucketCache) after.l2();
    assertInOvershootSlots(l2, blocks);
    try (HFileReader reader = CachedReadFixture.open(path, allocator, after)) {
      assertTrue(
          scanInPooledMemory(reader, rows, l2) >= (long) PE_BLOCK * blocks,
          "restored blocks are read into large pooled buffers");
    }
    CacheStats.Snapshot stats = after.stats().snapshot();
    assertEquals(0, stats.misses(BlockCategory.DATA), "every data block was restored: " + stats);
    assertEquals(blocks, l2.stats().snapshot().hitCount(), l2.snapshot().toString());
    assertEquals(0, l2.snapshot().checksumFailures());
  }

  @ParameterizedTest
  @ValueSource(strings = {"offheap", "file"})
  void concurrentSeeksThroughASmallL2ReturnTheRightCells(String engine, TestSeed seed)
      throws Exception {
    Path path = write();
    CombinedBlockCache cache = cache(engine, "1");
    try (HFileReader reader = CachedReadFixture.open(path, allocator, cache)) {
      CachedReadFixture.concurrentSeeks(reader, Rows.NUMBERED, CELLS, 4, 2_000, seed.value());
    }
    CacheStats.Snapshot l2 = cache.l2().stats().snapshot();
    assertTrue(l2.evictedBlockCount() > 0, "the L2 was far smaller than the file: " + l2);
    assertTrue(l2.hitCount() > 0, l2.toString());
  }
}
