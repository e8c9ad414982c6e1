package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The SHARDS tracker against exact LRU figures. Sampling every block, it must equal a naive LRU
 * stack-distance oracle (a recency list walked per access) at every point, whatever the renumbering
 * and the dropping of deep blocks do. Sampling a tenth of the blocks, or bounded to few blocks so
 * that the rate falls, it must come within a few points of LRU caches simulated at three sizes.
 * Randomized: the seed is printed, and {@code -Dcellar.test.seed} replays it.
 */
@ExtendWith(TestSeedExtension.class)
class MissRatioCurveTrackerTest {

  /** A trace of block accesses: key per access, and each key's fixed weight in bytes. */
  private record Trace(int[] keys, int[] weights) {}

  private static Trace trace(SplittableRandom random, int blocks, int length, boolean skewed) {
    int[] weights = new int[blocks];
    for (int i = 0; i < blocks; i++) {
      weights[i] = 200 + random.nextInt(4000);
    }
    int[] keys = new int[length];
    Zipf zipf = skewed ? new Zipf(blocks, 0.9) : null;
    for (int i = 0; i < length; i++) {
      keys[i] = skewed ? zipf.next(random) : random.nextInt(blocks);
    }
    return new Trace(keys, weights);
  }

  @Test
  void samplingEveryBlockEqualsTheStackDistanceOracle(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (boolean skewed : new boolean[] {false, true}) {
      int blocks = 150 + random.nextInt(100);
      Trace trace = trace(random, blocks, 20_000, skewed);
      long configured = 40_000 + random.nextInt(200_000);
      MissRatioCurveTracker tracker = new MissRatioCurveTracker(configured, 1.0, 256, null);
      for (int key : trace.keys()) {
        tracker.access(MissRatioCurveTracker.hash(7, key), trace.weights()[key]);
      }
      MissRatioCurve curve = tracker.curve();
      double[] expected = stackDistanceOracle(trace, curve.sizes());
      for (int k = 0; k < expected.length; k++) {
        assertEquals(
            expected[k],
            curve.hitRatios()[k],
            1e-9,
            "skewed " + skewed + ": hit ratio at " + curve.sizes()[k] + " bytes");
      }
      assertEquals(1.0, curve.rate());
      assertEquals(trace.keys().length, curve.sampledAccesses());
    }
  }

  /** Hit ratio at each size: an access hits when the bytes of its stack distance fit. */
  private static double[] stackDistanceOracle(Trace trace, long[] sizes) {
    int[] stack = new int[trace.weights().length];
    int depth = 0;
    long[] hits = new long[sizes.length];
    for (int key : trace.keys()) {
      long bytes = 0;
      int found = -1;
      for (int i = 0; i < depth; i++) {
        bytes += trace.weights()[stack[i]];
        if (stack[i] == key) {
          found = i;
          break;
        }
      }
      if (found >= 0) {
        for (int k = 0; k < sizes.length; k++) {
          if (bytes <= sizes[k]) {
            hits[k]++;
          }
        }
        System.arraycopy(stack, 0, stack, 1, found);
      } else {
        System.arraycopy(stack, 0, stack, 1, depth++);
      }
      stack[0] = key;
    }
    double[] ratios = new double[sizes.length];
    for (int k = 0; k < sizes.length; k++) {
      ratios[k] = (double) hits[k] / trace.keys().length;
    }
    return ratios;
  }

  /** Within this of LRU caches simulated on the same trace (see the class comment). */
  private static final double SAMPLED_ERROR = 0.03;

  @Test
  void aTenthOfTheBlocksPredictsLruCachesOfThreeSizes(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (boolean skewed : new boolean[] {false, true}) {
      Trace trace = trace(random, 20_000, 400_000, skewed);
      long total = Arrays.stream(trace.weights()).asLongStream().sum();
      long configured = total / 4;
      long[] shown = new long[1];
      MissRatioCurveTracker tracker =
          new MissRatioCurveTracker(configured, 0.1, 8192, () -> shown[0]);
      feed(tracker, trace, shown);
      checkAgainstLru(tracker.curve(), trace, "rate 0.1, skewed " + skewed);
    }
  }

  @Test
  void aFixedSizeTrackerLowersItsRateAndStillPredicts(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (boolean skewed : new boolean[] {false, true}) {
      Trace trace = trace(random, 20_000, 400_000, skewed);
      long total = Arrays.stream(trace.weights()).asLongStream().sum();
      long[] shown = new long[1];
      MissRatioCurveTracker tracker =
          new MissRatioCurveTracker(total / 4, 1.0, 2048, () -> shown[0]);
      feed(tracker, trace, shown);
      MissRatioCurve curve = tracker.curve();
      assertTrue(curve.rate() < 0.2, "the rate fell to keep 2048 blocks: " + curve.rate());
      assertTrue(curve.trackedBlocks() <= 2048, "tracked " + curve.trackedBlocks());
      checkAgainstLru(curve, trace, "fixed size 2048, skewed " + skewed);
    }
  }

  /** Shows the tracker every access of the trace, counting them in {@code shown[0]}. */
  private static void feed(MissRatioCurveTracker tracker, Trace trace, long[] shown) {
    for (int key : trace.keys()) {
      tracker.access(MissRatioCurveTracker.hash(11, key), trace.weights()[key]);
      shown[0]++;
    }
  }

  /** The curve at 1/2x, 1x and 2x against LRU caches of those sizes run over the trace. */
  private static void checkAgainstLru(MissRatioCurve curve, Trace trace, String what) {
    int configured = curve.configuredPoint();
    int perOctave = MissRatioCurveTracker.POINTS_PER_OCTAVE;
    for (int k : new int[] {configured - perOctave, configured, configured + perOctave}) {
      long size = curve.sizes()[k];
      double measured = simulateLru(trace, size);
      double predicted = curve.hitRatios()[k];
      System.out.printf("%s: %d bytes: LRU %.4f, curve %.4f%n", what, size, measured, predicted);
      assertEquals(measured, predicted, SAMPLED_ERROR, what + ", at " + size + " bytes");
    }
  }

  /** The hit ratio of an LRU cache of {@code capacity} bytes over the trace. */
  private static double simulateLru(Trace trace, long capacity) {
    LinkedHashMap<Integer, Integer> cache = new LinkedHashMap<>(16, 0.75f, true);
    long used = 0;
    long hits = 0;
    for (int key : trace.keys()) {
      if (cache.get(key) != null) {
        hits++;
        continue;
      }
      int weight = trace.weights()[key];
      cache.put(key, weight);
      used += weight;
      var eldest = cache.entrySet().iterator();
      while (used > capacity) {
        var entry = eldest.next();
        used -= entry.getValue();
        eldest.remove();
      }
    }
    return (double) hits / trace.keys().length;
  }

  @Test
  void anUnsampledBlockIsNeverCounted() {
    MissRatioCurveTracker tracker = new MissRatioCurveTracker(1 << 20, 0.25, 1024, null);
    long threshold = (long) (0.25 * ReuseDistances.FULL_RATE);
    int counted = 0;
    for (int key = 0; key < 1000; key++) {
      long hash = MissRatioCurveTracker.hash(3, key);
      tracker.access(hash, 100);
      if (hash < threshold) {
        counted++;
      }
    }
    assertEquals(counted, tracker.curve().sampledAccesses());
    assertTrue(counted > 150 && counted < 350, "about a quarter of the blocks: " + counted);
  }

  @Test
  void selectingTheKthAgreesWithSorting(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 200; round++) {
      int count = 1 + random.nextInt(300);
      long[] values = new long[count];
      for (int i = 0; i < count; i++) {
        values[i] = random.nextLong(round % 2 == 0 ? 50 : Long.MAX_VALUE);
      }
      long[] sorted = values.clone();
      Arrays.sort(sorted);
      int k = random.nextInt(count);
      assertEquals(sorted[k], ReuseDistances.selectKth(values, count, k));
    }
  }

  @Test
  void theCurveRunsFromAnEighthToFourTimesTheConfiguredSize() {
    long[] sizes = MissRatioCurveTracker.pointsAround(1_000_000);
    assertEquals(125_000, sizes[0]);
    assertEquals(1_000_000, sizes[MissRatioCurveTracker.CONFIGURED_POINT]);
    assertEquals(4_000_000, sizes[sizes.length - 1]);
    assertEquals(31, sizes.length);
    MissRatioCurve empty = new MissRatioCurveTracker(1_000_000, 0.5, 64, null).curve();
    assertTrue(Double.isNaN(empty.hitRatios()[0]), "no access yet");
  }

  /** Zipf-distributed ranks over {@code n} items by inverse transform of the cumulative weights. */
  private static final class Zipf {
    private final double[] cumulative;

    Zipf(int n, double exponent) {
      cumulative = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1 / Math.pow(i + 1, exponent);
        cumulative[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cumulative[i] /= sum;
      }
    }

    int next(SplittableRandom random) {
      int at = Arrays.binarySearch(cumulative, random.nextDouble());
      return Math.min(cumulative.length - 1, at >= 0 ? at : -at - 1);
    }
  }
}
