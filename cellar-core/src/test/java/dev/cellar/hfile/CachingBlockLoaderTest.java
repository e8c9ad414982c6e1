package dev.cellar.hfile;

import static dev.cellar.hfile.CachedReadFixture.PE_ROWS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cache.MissDoorkeeper;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.Settings;
import dev.cellar.hfile.CachedReadFixture.Rows;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.memory.BufAllocatorStats;
import dev.cellar.memory.RecycledHeapArrays;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading an HFile through an {@link LruBlockCache}: hits, misses, cache flags and eviction, and
 * blocks just over the pool buffer held as exact heap copies.
 */
@ExtendWith(TestSeedExtension.class)
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
    LruBlockCache cache =
        new LruBlockCache(
            LruBlockCacheConfig.from(
                Settings.of(Map.of(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, capacity))),
            Runnable::run);
    caches.add(cache);
    return cache;
  }

  private Path write() throws IOException {
    return CachedReadFixture.write(
        dir.resolve("cached.hfile"),
        HFileContext.builder()
            .blockSize(4096)
            .indexBlockMaxSize(1024)
            .encoding(DataBlockEncoding.FAST_DIFF)
            .compression(Compression.SNAPPY)
            .build(),
        Rows.NUMBERED,
        CELLS);
  }

  private HFileReader open(Path path, LruBlockCache cache) throws IOException {
    return CachedReadFixture.open(path, allocator, cache);
  }

  private static int scan(HFileReader reader, boolean cacheBlocks) throws IOException {
    return CachedReadFixture.scan(reader, Rows.NUMBERED, cacheBlocks);
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

  /**
   * A miss hands out the L1's heap copy, as the hits after it do (and gives the pooled buffer the
   * block was read into back at once), without counting a hit or promoting the block.
   */
  @Test
  void aMissHandsOutTheCopyTheCacheKeeps() throws IOException {
    Path path = write();
    LruBlockCache cache = cache("64m");
    try (HFileReader reader = open(path, cache)) {
      long offset = reader.trailer().firstDataBlockOffset();
      HFileBlock missed = reader.blockLoader().loadBlock(offset, -1, BlockType.DATA, true);
      try {
        assertFalse(missed.buf().isDirect(), missed.toString());
        assertEquals(0, allocator.stats().usedBufferCount(), "the read buffer went back");
        CacheStats.Snapshot afterMiss = cache.stats().snapshot();
        assertEquals(0, afterMiss.hitCount(), afterMiss.toString());
        HFileBlock hit = reader.blockLoader().loadBlock(offset, -1, BlockType.DATA, true);
        try {
          assertSame(missed, hit, "a hit hands out the block the miss handed out");
        } finally {
          hit.release();
        }
      } finally {
        missed.release();
      }
    }
  }

  @Test
  void scansThatDoNotCacheLeaveDataOutButStillCacheTheIndex() throws IOException {
    Path path = write();
    LruBlockCache cache = cache("64m");
    try (HFileReader reader = open(path, cache)) {
      assertEquals(CELLS, scan(reader, false));
      try (HFileScanner scanner = reader.scanner(false)) {
        assertEquals(
            HFileScanner.EXACT,
            scanner.seekTo(
                KeyValue.create(
                    Rows.NUMBERED.row(777),
                    "f".getBytes(),
                    "q".getBytes(),
                    1,
                    CellType.PUT,
                    new byte[0])));
      }
      CacheStats.Snapshot stats = cache.stats().snapshot();
      assertEquals(0, stats.hits(BlockCategory.DATA));
      assertTrue(cache.blockCount() > 0, "index blocks were cached");
      assertTrue(stats.misses(BlockCategory.INDEX) > 0, stats.toString());
    }
  }

  @ParameterizedTest
  @CsvSource({"NONE, 1000, 24", "ROW_INDEX_V1, 1176, 28"})
  void blocksJustOverThePoolBufferAreReadOnceIntoTheL1sRecycledArrays(
      DataBlockEncoding encoding, int valueLength, int blocks) throws IOException {
    Path path = CachedReadFixture.writePerformanceEvaluation(dir, encoding, valueLength);
    Rows rows = Rows.performanceEvaluation(valueLength);
    LruBlockCache cache = cache("64m");
    try (HFileReader reader = open(path, cache)) {
      allocator.heapAllocationRatioSinceLastCall();
      long largeBefore = allocator.stats().largeBuffers().allocatedBytes();
      assertEquals(PE_ROWS, CachedReadFixture.scan(reader, rows, true));
      BufAllocatorStats stats = allocator.stats();
      assertEquals(0, allocator.heapAllocationRatioSinceLastCall(), stats.toString());
      assertEquals(
          largeBefore,
          stats.largeBuffers().allocatedBytes(),
          "no data block went through a pooled buffer: " + stats);
      assertEquals(0, stats.usedBufferCount(), "the L1 pins no pooled memory");

      long cost = 0;
      long offset = reader.trailer().firstDataBlockOffset();
      long last = -1;
      for (int i = 0; i < blocks; i++) {
        last = offset;
        HFileBlock block =
            (HFileBlock)
                cache.getBlockRetained(
                    new BlockCacheKey(path.toString(), offset), false, true, false);
        try {
          Buf buf = block.buf();
          assertTrue(buf.capacity() > BufAllocatorConfig.DEFAULT.bufferSize(), block.toString());
          assertFalse(buf.isDirect(), block.toString());
          int arrayLength = ((byte[]) buf.segment().heapBase().orElseThrow()).length;
          int read = block.onDiskSizeWithHeader() + BlockHeader.SIZE;
          assertEquals(
              RecycledHeapArrays.GRANULE
                  * ((read + RecycledHeapArrays.GRANULE - 1) / RecycledHeapArrays.GRANULE),
              arrayLength,
              "the block read with its checksums and the next header into an array"
                  + " of that size's class");
          cost += block.heapSize() + arrayLength - buf.capacity() + LruBlockCache.ENTRY_OVERHEAD;
          offset += block.onDiskSizeWithHeader();
        } finally {
          block.release();
        }
      }
      assertEquals(reader.trailer().lastDataBlockOffset(), last, "every data block was visited");
      assertEquals(blocks, cache.blockCount(), "only the data blocks are cached");
      assertEquals(cost, cache.size(), "each block counted as its heap buffer and its array");

      long dataMisses = cache.stats().snapshot().misses(BlockCategory.DATA);
      assertEquals(PE_ROWS, CachedReadFixture.scan(reader, rows, true));
      CacheStats.Snapshot second = cache.stats().snapshot();
      assertEquals(dataMisses, second.misses(BlockCategory.DATA), "no new misses: " + second);
      assertTrue(second.hits(BlockCategory.DATA) >= blocks, second.toString());
    }
  }

  /**
   * {@code hbase.block.data.cachecompressed}: data blocks of a compressed file are cached packed
   * (smaller) and unpacked on every hit; index and bloom blocks stay unpacked; every cell reads
   * back, also from several threads.
   */
  @Test
  void compressedDataBlocksAreCachedPackedAndReadBackUnpacked() throws Exception {
    Path path = write();
    long unpackedBytes;
    LruBlockCache plain = cache("64m");
    try (HFileReader reader = open(path, plain)) {
      assertEquals(CELLS, scan(reader, true));
      unpackedBytes = plain.size();
    }
    LruBlockCache packed = cache("64m");
    try (HFileReader reader =
        HFileReader.open(
            path,
            allocator,
            direct -> new CachingBlockLoader(packed, direct, path.toString(), false, true))) {
      assertEquals(CELLS, scan(reader, true));
      long blocks = packed.stats().snapshot().missCount();
      assertEquals(plain.blockCount(), packed.blockCount(), "the same blocks are cached");
      assertTrue(
          packed.size() < unpackedBytes * 3 / 4,
          "packed " + packed.size() + " bytes vs unpacked " + unpackedBytes);
      assertEquals(CELLS, scan(reader, true));
      assertEquals(blocks, packed.stats().snapshot().missCount(), "the second scan hits");
      CachedReadFixture.concurrentSeeks(reader, Rows.NUMBERED, CELLS, 3, 2000, 17);
    }
  }

  /**
   * Once the cache churns, a data block is served but not cached at its first miss, and cached at
   * its second; until then, and always with the doorkeeper off, every block read is cached. A block
   * served uncached from an on-heap cache is on the heap too, and pins no pooled buffer.
   */
  @ParameterizedTest
  @CsvSource({"true", "false"})
  void aChurningCacheTakesADataBlockInAtItsSecondMiss(boolean doorkeeper) throws IOException {
    Path path = CachedReadFixture.writePerformanceEvaluation(dir, DataBlockEncoding.NONE, 1000);
    LruBlockCache cache =
        new LruBlockCache(
            LruBlockCacheConfig.from(
                Settings.of(
                    Map.of(
                        LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY,
                        "512k",
                        MissDoorkeeper.ENABLED_KEY,
                        Boolean.toString(doorkeeper)))),
            Runnable::run);
    caches.add(cache);
    try (HFileReader reader = open(path, cache)) {
      int blocks = 0;
      int cachedAtFirstMiss = 0;
      List<Long> leftOut = new ArrayList<>();
      for (long offset = reader.trailer().firstDataBlockOffset();
          offset <= reader.trailer().lastDataBlockOffset();
          blocks++) {
        HFileBlock block = reader.blockLoader().loadBlock(offset, -1, BlockType.DATA, true);
        boolean onHeap = !block.buf().isDirect();
        boolean lastReference = block.release();
        if (cache.containsBlock(new BlockCacheKey(path.toString(), offset))) {
          cachedAtFirstMiss++;
        } else {
          leftOut.add(offset);
          assertTrue(onHeap, "an uncached block is served on the heap, as cached ones");
          assertTrue(lastReference, "nothing but its reader held an uncached block");
        }
        offset += block.onDiskSizeWithHeader();
      }
      assertEquals(0, allocator.stats().usedBufferCount(), "no block pinned a pooled buffer");
      CacheStats.Snapshot stats = cache.stats().snapshot();
      assertEquals(leftOut.size(), stats.leftOutCount(), "the blocks left out are counted");
      if (!doorkeeper) {
        assertTrue(stats.evictedBlockCount() > 0, "the file is larger than the cache: " + stats);
        assertEquals(blocks, cachedAtFirstMiss, "every block read was cached");
        return;
      }
      assertEquals(0, stats.evictedBlockCount(), "nothing was cached to be evicted: " + stats);
      long blocksTheCacheHolds = cache.config().maxSize() / (64 << 10);
      assertTrue(
          cachedAtFirstMiss > 0 && cachedAtFirstMiss <= blocksTheCacheHolds,
          cachedAtFirstMiss + " blocks cached while there was room, of " + blocks);
      assertEquals(blocks, cachedAtFirstMiss + leftOut.size());
      assertTrue(leftOut.size() > blocks / 2, leftOut.size() + " of " + blocks + " left out");

      // The last miss recorded, so that no later miss took its doorkeeper slot.
      long again = leftOut.get(leftOut.size() - 1);
      HFileBlock served = reader.blockLoader().loadBlock(again, -1, BlockType.DATA, true);
      try {
        assertTrue(
            cache.containsBlock(new BlockCacheKey(path.toString(), again)),
            "cached at its second miss");
      } finally {
        served.release();
      }
    }
  }

  /**
   * Readers racing through a churning on-heap cache, whose blocks left out are read into the arrays
   * its evictions recycle, find every cell right.
   */
  @Test
  void concurrentSeeksThroughAChurningCacheReturnTheRightCells(TestSeed seed) throws Exception {
    Path path = CachedReadFixture.writePerformanceEvaluation(dir, DataBlockEncoding.NONE, 1000);
    LruBlockCache cache = cache("512k");
    try (HFileReader reader = open(path, cache)) {
      CachedReadFixture.concurrentSeeks(
          reader, Rows.performanceEvaluation(1000), PE_ROWS, 4, 3_000, seed.value());
    }
    CacheStats.Snapshot stats = cache.stats().snapshot();
    assertTrue(stats.leftOutCount() > 0, "the cache churned: " + stats);
    assertTrue(
        stats.evictedBlockCount() > 0, "blocks let in at a second miss evicted others: " + stats);
    assertTrue(stats.hitCount() > 0, stats.toString());
  }

  @Test
  void concurrentSeeksThroughASmallCacheReturnTheRightCells(TestSeed seed) throws Exception {
    Path path = write();
    LruBlockCache cache = cache("200k");
    try (HFileReader reader = open(path, cache)) {
      CachedReadFixture.concurrentSeeks(reader, Rows.NUMBERED, CELLS, 4, 3_000, seed.value());
    }
    CacheStats.Snapshot stats = cache.stats().snapshot();
    assertTrue(stats.evictedBlockCount() > 0, "the cache was far smaller than the file: " + stats);
    assertTrue(stats.hitCount() > 0, stats.toString());
  }

  @Test
  void aCacheThatThrowsWhileTakingABlockFailsNoReadAndLeaksNothing() throws IOException {
    Path path = write();
    BlockCache refusing = new RefusingCache(cache("64m"));
    try (HFileReader reader = CachedReadFixture.open(path, allocator, refusing)) {
      assertEquals(CELLS, scan(reader, true), "every read is served uncached");
    }
  }

  /** A cache whose every insert throws, as a full or broken L2 might. */
  private record RefusingCache(BlockCache delegate) implements BlockCache {
    @Override
    public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
      throw new IllegalStateException("injected cache failure for " + key);
    }

    @Override
    public Cacheable getBlockRetained(
        BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
      return delegate.getBlockRetained(key, caching, repeat, updateCacheMetrics);
    }

    @Override
    public boolean containsBlock(BlockCacheKey key) {
      return delegate.containsBlock(key);
    }

    @Override
    public boolean evictBlock(BlockCacheKey key) {
      return delegate.evictBlock(key);
    }

    @Override
    public int evictBlocksByHfileName(String fileName) {
      return delegate.evictBlocksByHfileName(fileName);
    }

    @Override
    public long size() {
      return delegate.size();
    }

    @Override
    public long freeSize() {
      return delegate.freeSize();
    }

    @Override
    public long blockCount() {
      return delegate.blockCount();
    }

    @Override
    public CacheStats stats() {
      return delegate.stats();
    }

    @Override
    public void shutdown() {
      delegate.shutdown();
    }
  }
}
