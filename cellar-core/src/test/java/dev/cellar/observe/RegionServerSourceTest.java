package dev.cellar.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.memory.BufAllocator;
import dev.cellar.metrics.EngineMetrics;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * HBase publishes its {@code l1Cache*} and {@code l2Cache*} attributes whatever tiers are
 * configured, at zero for an absent one; dashboards built for HBase read them by name. Cellar's
 * RegionServer source does the same with only an L1 and with no block cache at all.
 */
class RegionServerSourceTest {

  private static Map<String, Object> read(BlockCache cache) {
    ObservedDatabase database =
        new ObservedDatabase(
            "localhost,16020,1",
            1,
            "/data",
            new EngineMetrics(true),
            cache,
            null,
            BufAllocator.HEAP,
            null,
            null,
            List::of);
    return new RegionServerSource(database)
        .read().stream().collect(Collectors.toMap(Metric::name, Metric::value));
  }

  @Test
  void theAbsentTiersArePublishedAtZero() {
    LruBlockCache l1 = new LruBlockCache(LruBlockCacheConfig.withCapacity(1 << 20), Runnable::run);
    try {
      Map<String, Object> onlyL1 = read(l1);
      for (String name :
          List.of(
              "l2CacheHitRatio",
              "l2CacheMissRatio",
              "l2CacheHitCount",
              "l2CacheMissCount",
              "l2CacheCount",
              "l2CacheSize",
              "l2CacheFreeSize",
              "l2CacheEvictionCount")) {
        assertTrue(onlyL1.containsKey(name), name + " is published without an L2");
        assertEquals(0.0, ((Number) onlyL1.get(name)).doubleValue(), name);
      }
      assertTrue(onlyL1.containsKey("l1CacheHitRatio"));
    } finally {
      l1.shutdown();
    }
    Map<String, Object> none = read(null);
    assertTrue(
        none.containsKey("l1CacheHitRatio") && none.containsKey("l2CacheHitRatio"),
        "both tiers at zero without a block cache");
  }
}
