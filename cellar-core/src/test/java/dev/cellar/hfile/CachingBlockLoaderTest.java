package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading an HFile through an {@link LruBlockCache}: hits, misses, cache flags and eviction. */
class CachingBlockLoaderTest {

  private static final int CELLS = 20_000;

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private final List<LruBlockCache> caches = new ArrayList<>();

  @AfterEach
  void shutDown() {
    caches.forEach(LruBlockCache::shutdown);
    assertEquals(0, allocator.stats().usedBufferCount(), "every pooled buffer came back");
    allocator.close();
  }

  private LruBlockCache cache(String capacity) {
    LruBlockCache cache = new LruBlockCache(LruBlockCacheConfig.from(Settings.of(Map.of(
        LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, capacity))), Runnable::run);
    caches.add(cache);
    return cache;
  }

  private Path write() throws IOException {
    return CachedReadFixture.write(dir.resolve("cached.hfile"), HFileContext.builder()
        .blockSize(4096).indexBlockMaxSize(1024).encoding(DataBlockEncoding.FAST_DIFF)
        .compression(Compression.SNAPPY).build(), CELLS);
  }

  private HFileReader open(Path path, LruBlockCache cache) throws IOException {
    return CachedReadFixture.open(path, allocator, cache);
  }

  private static int scan(HFileReader reader, boolean cacheBlocks) throws IOException {
    return CachedReadFixture.scan(reader, cacheBlocks);
  }

  @Test
  void aSecondScanIsServedFromTheCache() throws IOException {
    Path path = write();
    LruBlockCache cache = cache("64m");
    try (HFileReader reader = open(path, cache)) {
      assertEquals(CELLS, scan(reader, true));
      CacheStats.Snapshot first = cache.stats().snapshot();
      long blocks = first.missCount();
      assertTrue(blocks > 50, "the file has many blocks: " + first);
      assertEquals(blocks, cache.blockCount(), "every block read was cached");
      assertEquals(CELLS, scan(reader, true));
      CacheStats.Snapshot second = cache.stats().snapshot();
      assertEquals(blocks, second.missCount(), "no new misses: " + second);
      assertTrue(second.hitCount() >= blocks - 1, second.toString());
    }
  }

  @Test
  void scansThatDoNotCacheLeaveDataOutButStillCacheTheIndex() throws IOException {
    Path path = write();
    LruBlockCache cache = cache("64m");
    try (HFileReader reader = open(path, cache)) {
      assertEquals(CELLS, scan(reader, false));
      try (HFileScanner scanner = reader.scanner(false)) {
        assertEquals(HFileScanner.EXACT, scanner.seekTo(KeyValue.create(CachedReadFixture.row(777),
            "f".getBytes(), "q".getBytes(), 1, CellType.PUT, new byte[0])));
      }
      CacheStats.Snapshot stats = cache.stats().snapshot();
      assertEquals(0, stats.hits(BlockCategory.DATA));
      assertTrue(cache.blockCount() > 0, "index blocks were cached");
      assertTrue(stats.misses(BlockCategory.INDEX) > 0, stats.toString());
    }
  }

  @Test
  void concurrentSeeksThroughASmallCacheReturnTheRightCells() throws Exception {
    Path path = write();
    LruBlockCache cache = cache("200k");
    long seed = Long.getLong("cellar.test.seed", System.nanoTime());
    try (HFileReader reader = open(path, cache)) {
      CachedReadFixture.concurrentSeeks(reader, CELLS, 4, 3_000, seed);
    }
    CacheStats.Snapshot stats = cache.stats().snapshot();
    assertTrue(stats.evictedBlockCount() > 0, "the cache was far smaller than the file: " + stats);
    assertTrue(stats.hitCount() > 0, stats.toString());
  }
}
