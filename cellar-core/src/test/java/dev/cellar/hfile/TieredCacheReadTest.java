package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.tiered.BlockCacheFactory;
import dev.cellar.cache.tiered.CombinedBlockCache;
import dev.cellar.config.Settings;
import dev.cellar.hfile.encoding.DataBlockEncoding;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading HFiles through the combined cache the factory builds (an LRU L1 for index and bloom
 * blocks, a BucketCache L2 for data blocks) on each L2 engine: data blocks come back from the L2 as
 * HFile blocks rebuilt from their stored bytes, and concurrent seeks through an L2 far smaller than
 * the file return the right cells while it evicts.
 */
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
    BlockCache cache = BlockCacheFactory.create(Settings.of(Map.of(
        "hfile.block.cache.memory.size", "16m",
        "hbase.bucketcache.ioengine", engine(engine),
        "hbase.bucketcache.size", sizeMiB,
        "hbase.bucketcache.bucket.sizes", "5120,9216,17408,33792")), allocator).orElseThrow();
    caches.add(cache);
    return (CombinedBlockCache) cache;
  }

  private Path write() throws IOException {
    return CachedReadFixture.write(dir.resolve("tiered.hfile"), HFileContext.builder()
        .blockSize(8192).indexBlockMaxSize(1024).encoding(DataBlockEncoding.FAST_DIFF)
        .compression(Compression.LZ4).build(), CELLS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"offheap", "heap", "file", "mmap"})
  void aSecondScanReadsDataBlocksBackFromTheL2(String engine) throws Exception {
    Path path = write();
    CombinedBlockCache cache = cache(engine, "64");
    try (HFileReader reader = CachedReadFixture.open(path, allocator, cache)) {
      assertEquals(CELLS, CachedReadFixture.scan(reader, true));
      assertTrue(((BucketCache) cache.l2()).awaitQueuedWrites(10_000));
      long dataMisses = cache.stats().snapshot().misses(BlockCategory.DATA);
      assertEquals(CELLS, CachedReadFixture.scan(reader, true));
      CacheStats.Snapshot stats = cache.stats().snapshot();
      assertEquals(dataMisses, stats.misses(BlockCategory.DATA), "the second scan missed: " + stats);
      assertTrue(stats.hits(BlockCategory.DATA) >= dataMisses - 1, stats.toString());
      assertTrue(cache.l1().blockCount() > 0, "index blocks in the L1");
      assertTrue(cache.l2().stats().snapshot().hitCount() > 0, "data blocks from the L2");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"offheap", "file"})
  void concurrentSeeksThroughASmallL2ReturnTheRightCells(String engine) throws Exception {
    Path path = write();
    CombinedBlockCache cache = cache(engine, "1");
    long seed = Long.getLong("cellar.test.seed", System.nanoTime());
    try (HFileReader reader = CachedReadFixture.open(path, allocator, cache)) {
      CachedReadFixture.concurrentSeeks(reader, CELLS, 4, 2_000, seed);
    }
    CacheStats.Snapshot l2 = cache.l2().stats().snapshot();
    assertTrue(l2.evictedBlockCount() > 0, "the L2 was far smaller than the file: " + l2);
    assertTrue(l2.hitCount() > 0, l2.toString());
  }
}
