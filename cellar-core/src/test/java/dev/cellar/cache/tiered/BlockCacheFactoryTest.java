package dev.cellar.cache.tiered;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.bucket.BucketCacheConfig;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which cache the configuration builds, and which settings it refuses. */
class BlockCacheFactoryTest {

  private static final long HEAP = 1L << 30;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private BlockCache built;

  @AfterEach
  void shutDown() {
    if (built != null) {
      built.shutdown();
    }
    allocator.close();
  }

  private BlockCache build(Map<String, String> settings) throws Exception {
    Optional<BlockCache> cache = BlockCacheFactory.create(Settings.of(settings), allocator, HEAP);
    built = cache.orElse(null);
    return built;
  }

  @Test
  void noL2KeysGiveAnLruSizedFromTheHeap() throws Exception {
    BlockCache cache = build(Map.of());
    LruBlockCache lru = assertInstanceOf(LruBlockCache.class, cache);
    assertEquals((long) (HEAP * 0.4), lru.config().maxSize());
  }

  @Test
  void aZeroCacheFractionMeansNoCacheAtAllEvenWithAnIoEngine() throws Exception {
    assertTrue(
        BlockCacheFactory.create(
                Settings.of(
                    Map.of(
                        "hfile.block.cache.size",
                        "0",
                        "hbase.bucketcache.ioengine",
                        "offheap",
                        "hbase.bucketcache.size",
                        "64")),
                allocator,
                HEAP)
            .isEmpty());
  }

  @Test
  void anIoEngineGivesACombinedCacheWithABucketCacheOfThatManyMebibytes() throws Exception {
    BlockCache cache =
        build(
            Map.of(
                "hbase.bucketcache.ioengine",
                "offheap",
                "hbase.bucketcache.size",
                "64",
                "hfile.block.cache.memory.size",
                "8m"));
    CombinedBlockCache combined = assertInstanceOf(CombinedBlockCache.class, cache);
    LruBlockCache l1 = assertInstanceOf(LruBlockCache.class, combined.l1());
    BucketCache l2 = assertInstanceOf(BucketCache.class, combined.l2());
    assertEquals(8L << 20, l1.config().maxSize());
    assertEquals(64L << 20, l2.config().capacity());
    assertEquals("offheap", l2.ioEngine());
    assertEquals(0, l2.snapshot().blockCount());
    assertArrayEquals(BucketCacheConfig.DEFAULT_BUCKET_SIZES, l2.config().bucketSizes());
  }

  @Test
  void anExplicitBucketSizeListIsHonouredWithoutTheOvershootSize() throws Exception {
    String hbaseDefaults =
        "5120,9216,17408,33792,41984,50176,58368,66560,99328,132096,197632,"
            + "263168,394240,525312";
    BlockCache cache =
        build(
            Map.of(
                "hbase.bucketcache.ioengine",
                "offheap",
                "hbase.bucketcache.size",
                "64",
                "hbase.bucketcache.bucket.sizes",
                hbaseDefaults));
    BucketCache l2 = assertInstanceOf(BucketCache.class, ((CombinedBlockCache) cache).l2());
    int[] sizes = l2.config().bucketSizes();
    assertEquals(14, sizes.length);
    assertEquals(99328, sizes[8], "66560 is followed by 99328, as the user asked");
    assertEquals(14, l2.snapshot().sizeClasses().size());
  }

  @Test
  void theInclusiveKeyMakesTheBucketCacheTheL1sVictim() throws Exception {
    BlockCache cache =
        build(
            Map.of(
                "hbase.bucketcache.ioengine",
                "offheap",
                "hbase.bucketcache.size",
                "32",
                "cellar.blockcache.inclusive",
                "true"));
    InclusiveCombinedBlockCache inclusive =
        assertInstanceOf(InclusiveCombinedBlockCache.class, cache);
    assertSame(inclusive.l2(), inclusive.l1().victimCache());
  }

  @Test
  void invalidSettingsNameTheirKey() {
    assertKey("hbase.bucketcache.size", Map.of("hbase.bucketcache.ioengine", "offheap"));
    assertKey(
        "hbase.bucketcache.size",
        Map.of("hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "0.5"));
    assertKey(
        "hbase.bucketcache.ioengine",
        Map.of("hbase.bucketcache.ioengine", "tape:/dev/st0", "hbase.bucketcache.size", "64"));
    assertKey("hfile.block.cache.policy", Map.of("hfile.block.cache.policy", "TinyLFU"));
    assertKey(
        "hbase.bucketcache.combinedcache.enabled",
        Map.of(
            "hbase.bucketcache.ioengine",
            "offheap",
            "hbase.bucketcache.size",
            "64",
            "hbase.bucketcache.combinedcache.enabled",
            "false"));
    assertKey(
        "hbase.bucketcache.bucket.sizes",
        Map.of(
            "hbase.bucketcache.ioengine",
            "offheap",
            "hbase.bucketcache.size",
            "64",
            "hbase.bucketcache.bucket.sizes",
            "5000,9216"));
    assertKey(
        "hbase.bucketcache.minfactor",
        Map.of(
            "hbase.bucketcache.ioengine",
            "offheap",
            "hbase.bucketcache.size",
            "64",
            "hbase.bucketcache.minfactor",
            "0.97"));
  }

  private void assertKey(String key, Map<String, String> settings) {
    InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> build(settings));
    assertEquals(key, e.key(), e.getMessage());
    assertFalse(e.getMessage().isBlank());
  }
}
