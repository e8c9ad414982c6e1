package dev.cellar.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.config.Settings;
import dev.cellar.memory.BufAllocator;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each sample holds what happened between it and the one before: rates over the interval, the
 * interval's p99, a tier's hit ratio over the lookups of the interval; the ring keeps the last few.
 */
class SamplerTest {

  @Test
  void aSampleIsTheIntervalSinceThePreviousOne() {
    EngineMetrics metrics = new EngineMetrics();
    LruBlockCache cache = LruBlockCache.create(LruBlockCacheConfig.from(Settings.empty(), 1 << 20));
    try {
      ObservedDatabase database =
          new ObservedDatabase(
              "localhost,0,1",
              1,
              "/tmp/db",
              metrics,
              cache,
              null,
              BufAllocator.HEAP,
              null,
              null,
              List::of);
      Sampler sampler = new Sampler(database, 3);
      for (int i = 0; i < 1_000; i++) {
        metrics.record(Operation.GET, 1_000);
      }
      sampler.sample(10_000);
      assertTrue(sampler.samples().isEmpty(), "the first call only sets the baseline");
      for (int i = 0; i < 50; i++) {
        metrics.record(Operation.GET, 2_000_000);
      }
      for (int i = 0; i < 3; i++) {
        cache.getBlockRetained(new BlockCacheKey("f", i), true, false, true);
      }
      sampler.sample(12_000);
      Sampler.Sample sample = sampler.samples().getLast();
      assertEquals(25.0, sample.getsPerSecond(), 1e-9, "50 gets over 2 s");
      assertTrue(
          sample.getP99Micros() >= 2_000 && sample.getP99Micros() <= 2_000 * 17 / 16.0,
          "the interval's p99 is that of its own gets: " + sample.getP99Micros());
      assertEquals(0.0, sample.l1HitRatio(), 1e-9, "three misses");
      assertTrue(Double.isNaN(sample.l2HitRatio()), "no L2");
      for (int t = 14_000; t <= 20_000; t += 2_000) {
        sampler.sample(t);
      }
      assertEquals(3, sampler.samples().size(), "the ring keeps its capacity");
      assertEquals(20_000, sampler.samples().getLast().timeMillis());
      assertEquals(0.0, sampler.samples().getLast().getsPerSecond(), 1e-9);
      assertTrue(sampler.samplesJson().contains("\"l2HitRatio\":null"));
    } finally {
      cache.shutdown();
    }
  }
}
