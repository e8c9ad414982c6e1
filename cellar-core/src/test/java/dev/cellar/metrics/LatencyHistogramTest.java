package dev.cellar.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The histogram's buckets tile the values without gaps or overlaps, and percentiles read from them
 * stay within a bucket's width (1/16) of the exact percentile of what was recorded.
 */
@ExtendWith(TestSeedExtension.class)
class LatencyHistogramTest {

  @Test
  void bucketsTileTheValues() {
    for (int i = 0; i < LatencyHistogram.BUCKETS - 1; i++) {
      assertEquals(
          LatencyHistogram.upperBound(i) + 1, LatencyHistogram.lowerBound(i + 1), "bucket " + i);
      assertEquals(i, LatencyHistogram.indexOf(LatencyHistogram.lowerBound(i)), "low of " + i);
      assertEquals(i, LatencyHistogram.indexOf(LatencyHistogram.upperBound(i)), "high of " + i);
    }
    assertEquals(LatencyHistogram.BUCKETS - 1, LatencyHistogram.indexOf(Long.MAX_VALUE));
  }

  @Test
  void percentilesAreWithinABucketOfTheExactOnes(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    LatencyHistogram histogram = new LatencyHistogram();
    long[] values = new long[20_000];
    for (int i = 0; i < values.length; i++) {
      // log-uniform between 100 ns and about 100 ms
      values[i] = (long) Math.pow(10, 2 + random.nextDouble() * 6);
      histogram.record(values[i]);
    }
    Arrays.sort(values);
    HistogramSnapshot snapshot = histogram.snapshot();
    assertEquals(values.length, snapshot.count());
    assertEquals(values[0], snapshot.min());
    assertEquals(values[values.length - 1], snapshot.max());
    assertEquals(Arrays.stream(values).sum(), snapshot.sum());
    for (double fraction : HistogramSnapshot.PERCENTILES) {
      long exact = values[(int) Math.ceil(fraction * values.length) - 1];
      long read = snapshot.percentile(fraction);
      assertTrue(
          read >= exact && read <= exact + exact / 16 + 1,
          "p" + fraction + ": exact " + exact + ", read " + read);
    }
  }

  @Test
  void sinceCountsOnlyTheLaterValues() {
    LatencyHistogram histogram = new LatencyHistogram();
    for (int i = 0; i < 100; i++) {
      histogram.record(1_000);
    }
    HistogramSnapshot earlier = histogram.snapshot();
    for (int i = 0; i < 10; i++) {
      histogram.record(1_000_000);
    }
    HistogramSnapshot delta = histogram.snapshot().since(earlier);
    assertEquals(10, delta.count());
    assertEquals(10_000_000, delta.sum());
    long p50 = delta.percentile(0.5);
    assertTrue(p50 >= 1_000_000 && p50 <= 1_000_000 + 1_000_000 / 16, "p50 " + p50);
    assertEquals(0, histogram.snapshot().since(histogram.snapshot()).count());
  }

  @Test
  void anEmptyHistogramReadsZero() {
    HistogramSnapshot snapshot = new LatencyHistogram().snapshot();
    assertEquals(0, snapshot.count());
    assertEquals(0, snapshot.min());
    assertEquals(0, snapshot.max());
    assertEquals(0, snapshot.percentile(0.99));
    assertEquals(0, snapshot.mean());
  }
}
