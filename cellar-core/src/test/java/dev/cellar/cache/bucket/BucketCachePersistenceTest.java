package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.TestBlock;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Warm restarts of a file-backed bucket cache, and every way its files can be wrong: a missing,
 * truncated, bit-flipped or mismatched index, a flipped or truncated cache file, and an index older
 * than the cache's contents (a crash after the last persist). In every case the cache opens, and no
 * block is served with bytes other than its own.
 */
@ExtendWith(TestSeedExtension.class)
class BucketCachePersistenceTest {

  static final int[] SIZES = {5120, 9216};
  static final long BUCKET = 4L * 9216;
  static final int BLOCKS = 40;

  @TempDir Path directory;

  private BufAllocator allocator;
  private final String file = "persisted-" + System.nanoTime();

  @BeforeEach
  void createAllocator() {
    allocator = new BufAllocator(new BufAllocatorConfig(true, 16384, 256, 0));
  }

  @AfterEach
  void checkAllocator() {
    assertEquals(0, allocator.stats().usedBufferCount(), "pooled buffers still in use");
    allocator.close();
  }

  private BucketCacheConfig config() {
    return BucketCacheConfig.of("file:" + directory.resolve("cache.data"), 16 * BUCKET)
        .withBucketSizes(SIZES)
        .withPersistentPath(directory.resolve("cache.index"));
  }

  private BlockCacheKey key(int i) {
    return new BlockCacheKey(file, i * 100_000L);
  }

  private static int size(int i) {
    return 1000 + (i * 977) % 8000;
  }

  private void fill(BucketCache cache, int from, int to) throws InterruptedException {
    for (int i = from; i < to; i++) {
      TestBlock block = TestBlock.allocate(allocator, key(i), size(i), BlockCategory.DATA);
      cache.cacheBlock(key(i), block, false);
      block.release();
    }
    assertTrue(cache.awaitQueuedWrites(10_000));
  }

  /** Reads every block 0..to; returns how many were served, failing on any wrong byte. */
  private int servedCorrectly(BucketCache cache, int to) {
    int served = 0;
    for (int i = 0; i < to; i++) {
      Cacheable block = cache.getBlockRetained(key(i), true, false, true);
      if (block != null) {
        int mismatch = TestBlock.firstMismatch(block, key(i), size(i));
        block.release();
        assertEquals(-1, mismatch, "block " + i + " served with a wrong byte");
        served++;
      }
    }
    return served;
  }

  private BucketCache reopen() throws IOException {
    return BucketCache.create(config(), allocator);
  }

  private BucketCache written() throws Exception {
    BucketCache cache = BucketCache.create(config(), allocator);
    fill(cache, 0, BLOCKS);
    cache.shutdown();
    return cache;
  }

  @Test
  void aCleanRestartComesBackWarm() throws Exception {
    written();
    BucketCache cache = reopen();
    try {
      assertEquals(BLOCKS, cache.blockCount());
      assertEquals(BLOCKS, servedCorrectly(cache, BLOCKS));
      assertEquals(BLOCKS, servedCorrectly(cache, BLOCKS), "verified entries serve again");
      assertEquals(0, cache.snapshot().checksumFailures());
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void theIndexListsEntriesInFileAndOffsetOrder() throws Exception {
    written();
    List<BucketIndexFile.StoredEntry> entries =
        BucketIndexFile.read(
            directory.resolve("cache.index"),
            config(),
            "file:" + directory.resolve("cache.data"),
            16 * BUCKET);
    assertEquals(BLOCKS, entries.size());
    for (int i = 0; i < BLOCKS; i++) {
      assertEquals(key(i), entries.get(i).key(), "entry " + i);
    }
  }

  @Test
  void aMissingIndexGivesAnEmptyCache() throws Exception {
    written();
    Files.delete(directory.resolve("cache.index"));
    assertEmptyAndUsable();
  }

  @Test
  void aTruncatedIndexGivesAnEmptyCache() throws Exception {
    written();
    Path index = directory.resolve("cache.index");
    try (RandomAccessFile raf = new RandomAccessFile(index.toFile(), "rw")) {
      raf.setLength(raf.length() / 2);
    }
    assertEmptyAndUsable();
  }

  @Test
  void anEmptiedIndexOrOneReplacedByGarbageGivesAnEmptyCache() throws Exception {
    written();
    Path index = directory.resolve("cache.index");
    int length = (int) Files.size(index);
    Files.write(index, new byte[0]);
    assertEmptyAndUsable();
    written();
    byte[] garbage = new byte[length];
    new SplittableRandom(length).nextBytes(garbage);
    Files.write(index, garbage);
    assertEmptyAndUsable();
  }

  @Test
  void aBitFlipAnywhereInTheIndexGivesAnEmptyCache(TestSeed seed) throws Exception {
    written();
    Path index = directory.resolve("cache.index");
    byte[] original = Files.readAllBytes(index);
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 8; round++) {
      byte[] flipped = original.clone();
      int at = random.nextInt(flipped.length);
      flipped[at] ^= (byte) (1 << random.nextInt(8));
      Files.write(index, flipped);
      BucketCache cache = reopen();
      try {
        assertEquals(0, cache.blockCount(), "flip at byte " + at + " accepted");
      } finally {
        cache.shutdown();
      }
      Files.write(index, original);
    }
  }

  @Test
  void anIndexForAnotherCapacityGivesAnEmptyCache() throws Exception {
    written();
    BucketCache cache =
        BucketCache.create(
            BucketCacheConfig.of("file:" + directory.resolve("cache.data"), 20 * BUCKET)
                .withBucketSizes(SIZES)
                .withPersistentPath(directory.resolve("cache.index")),
            allocator);
    try {
      assertEquals(0, cache.blockCount());
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void aFlippedCacheFileByteEvictsOnlyThatBlock() throws Exception {
    written();
    BucketCache probe = reopen();
    long slot;
    try {
      slot =
          probe.entries().stream()
              .filter(e -> e.key().equals(key(7)))
              .findFirst()
              .orElseThrow()
              .offset;
    } finally {
      probe.shutdown();
    }
    try (RandomAccessFile raf =
        new RandomAccessFile(directory.resolve("cache.data").toFile(), "rw")) {
      raf.seek(slot + 100);
      int b = raf.read();
      raf.seek(slot + 100);
      raf.write(b ^ 0x10);
    }
    BucketCache cache = reopen();
    try {
      assertEquals(BLOCKS - 1, servedCorrectly(cache, BLOCKS));
      assertNull(cache.getBlockRetained(key(7), true, false, true));
      assertEquals(1, cache.snapshot().checksumFailures());
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void aTruncatedCacheFileServesNothingWrong() throws Exception {
    written();
    try (RandomAccessFile raf =
        new RandomAccessFile(directory.resolve("cache.data").toFile(), "rw")) {
      raf.setLength(raf.length() / 3);
    }
    BucketCache cache = reopen();
    try {
      assertEquals(0, servedCorrectly(cache, BLOCKS));
      fill(cache, 0, 5);
      assertEquals(5, servedCorrectly(cache, 5), "the cache works again");
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void anIndexOlderThanTheCacheContentsNeverServesReusedSlots() throws Exception {
    BucketCache cache = BucketCache.create(config(), allocator);
    fill(cache, 0, BLOCKS);
    cache.persistNow();
    Path index = directory.resolve("cache.index");
    Path stale = directory.resolve("stale.index");
    Files.copy(index, stale);
    for (int i = 0; i < BLOCKS; i += 2) {
      cache.evictBlock(key(i));
    }
    fill(cache, BLOCKS, 2 * BLOCKS);
    cache.shutdown();
    Files.move(stale, index, StandardCopyOption.REPLACE_EXISTING);

    BucketCache restarted = reopen();
    try {
      int served = servedCorrectly(restarted, 2 * BLOCKS);
      assertTrue(served >= BLOCKS / 2, "the blocks never evicted are served, got " + served);
      assertTrue(restarted.snapshot().checksumFailures() > 0, "reused slots went unnoticed");
    } finally {
      restarted.shutdown();
    }
  }

  private void assertEmptyAndUsable() throws Exception {
    BucketCache cache = reopen();
    try {
      assertEquals(0, cache.blockCount());
      assertEquals(0, servedCorrectly(cache, BLOCKS));
      fill(cache, 0, 3);
      assertEquals(3, servedCorrectly(cache, 3));
    } finally {
      cache.shutdown();
    }
  }
}
