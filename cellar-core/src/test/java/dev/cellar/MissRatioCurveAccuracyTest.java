package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cache.MissDoorkeeper;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.observe.http.Observability;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block cache's miss-ratio curve against the hit ratios real caches measure. One table of
 * {@value #ROWS} rows in 4 KiB blocks (about 1,000 data blocks) is read by random Gets, uniform
 * over the rows or Zipfian (exponent 0.99, YCSB's, the popular rows scattered over the blocks),
 * through databases whose L1 is a half, one and two times a size {@code S} (a quarter of the
 * table). The curve the middle run estimates at 1/2x, 1x and 2x, read through JMX, must be within
 * {@value #ERROR} of the data-block hit ratio each of the three caches measured, and every run's
 * curve at its own size too.
 *
 * <p>Why {@value #ERROR}: the tracker follows every block here, so what is left is the model's
 * error (the sampling's own error is bounded by {@code MissRatioCurveTrackerTest}; sampling a
 * quarter of these 1,000 blocks, the Zipfian curve at half the size moved by 0.05 with which hot
 * blocks the file names' hashes happened to sample). The real cache is not the model's exact LRU:
 * it evicts from 99% of its size down to 95%, and its priority groups favour blocks read twice. Its
 * hard limit is set to its acceptable size, so an eviction thread that lags on a busy machine makes
 * it refuse blocks rather than hold up to 1.2 times its size, which it measured as a few points
 * more hits than its size allows. Its doorkeeper is off: the curve models a cache that takes every
 * block it misses (with the doorkeeper, the Zipfian run at the middle size missed 0.42 of its
 * lookups where the curve, and the cache without it, missed 0.47). Randomized: the seed is printed,
 * {@code -Dcellar.test.seed} replays it (the sampled blocks depend on the file names too).
 */
@ExtendWith(TestSeedExtension.class)
class MissRatioCurveAccuracyTest {

  private static final int ROWS = 32_000;
  private static final int GETS = 80_000;
  private static final double ERROR = 0.05;
  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);

  @TempDir Path directory;

  /** What one run measured and estimated. */
  private record Run(long cacheBytes, double measured, double[] curve, long[] sizes) {}

  @Test
  void theCurvePredictsCachesOfThreeSizes(TestSeed seed) throws Exception {
    long dataBytes = load();
    long size = dataBytes / 4;
    for (boolean zipfian : new boolean[] {false, true}) {
      Run[] runs = new Run[3];
      long[] cacheSizes = {size / 2, size, size * 2};
      for (int i = 0; i < 3; i++) {
        runs[i] = run(cacheSizes[i], zipfian, seed);
      }
      String workload = zipfian ? "zipfian" : "uniform";
      Run middle = runs[1];
      int configured = MissRatioCurveTracker.CONFIGURED_POINT;
      int octave = 6;
      int[] points = {configured - octave, configured, configured + octave};
      for (int i = 0; i < 3; i++) {
        double predicted = middle.curve()[points[i]];
        double own = runs[i].curve()[configured];
        System.out.printf(
            "%s: cache %d bytes: measured %.4f, curve of the %d-byte run %.4f,"
                + " its own curve %.4f%n",
            workload,
            runs[i].cacheBytes(),
            runs[i].measured(),
            middle.cacheBytes(),
            predicted,
            own);
        assertEquals(runs[i].cacheBytes(), middle.sizes()[points[i]], 1.0);
        assertEquals(
            runs[i].measured(),
            predicted,
            ERROR,
            workload + ": the curve at " + runs[i].cacheBytes() + " bytes");
        assertEquals(
            runs[i].measured(), own, ERROR, workload + ": the run's own curve at its size");
      }
      assertTrue(runs[0].measured() < runs[2].measured(), "a larger cache hits more");
    }
  }

  /** Writes the rows into one file; returns the bytes of its blocks as the L1 charges them. */
  private long load() throws IOException {
    try (Cellar cellar =
        Cellar.open(
            directory, CellarConfig.defaults().with(MissRatioCurveTracker.ENABLED_KEY, "false"))) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of("t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "4096"))));
      Table table = cellar.table("t");
      byte[] value = new byte[100];
      List<Put> batch = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        batch.add(new Put(row(i)).addColumn(FAMILY, FAMILY, value));
        if (batch.size() == 1_000) {
          table.put(batch);
          batch.clear();
        }
      }
      cellar.admin().flush("t");
      for (int i = 0; i < ROWS; i++) {
        table.get(new Get(row(i))).close();
      }
      return cellar.blockCache().size();
    }
  }

  private Run run(long cacheBytes, boolean zipfian, TestSeed seed) throws Exception {
    CellarConfig config =
        CellarConfig.defaults()
            .with("hfile.block.cache.memory.size", String.valueOf(cacheBytes))
            .with(LruBlockCacheConfig.HARD_CAPACITY_LIMIT_FACTOR_KEY, "1.0")
            .with(MissDoorkeeper.ENABLED_KEY, "false")
            .with(MissRatioCurveTracker.RATE_KEY, "1.0")
            .with(Observability.JMX_ENABLED_KEY, "true");
    try (Cellar cellar = Cellar.open(directory, config)) {
      Table table = cellar.table("t");
      SplittableRandom random = new SplittableRandom(seed.value());
      Zipfian popularity = zipfian ? new Zipfian(ROWS, 0.99) : null;
      for (int i = 0; i < GETS; i++) {
        int rank = zipfian ? popularity.next(random) : random.nextInt(ROWS);
        int row = zipfian ? scatter(rank) : rank;
        try (Result result = table.get(new Get(row(row)))) {
          if (result.isEmpty()) {
            throw new AssertionError("row " + row + " missing");
          }
        }
      }
      CacheStats.Snapshot stats = cellar.blockCache().stats().snapshot();
      long hits = stats.hits(BlockCategory.DATA);
      double measured = (double) hits / (hits + stats.misses(BlockCategory.DATA));
      return new Run(cacheBytes, measured, curveFromJmx(), cellar.missRatioCurve().curve().sizes());
    }
  }

  /** The curve's points as JMX publishes them. */
  private static double[] curveFromJmx() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name =
        new ObjectName("Hadoop:service=HBase,name=RegionServer,sub=CellarMissRatioCurve");
    double[] ratios = new double[31];
    for (int k = 0; k < ratios.length; k++) {
      ratios[k] = (Double) server.getAttribute(name, String.format("point%02dHitRatio", k));
    }
    assertTrue(Arrays.stream(ratios).noneMatch(Double::isNaN), "every point estimated");
    return ratios;
  }

  /** Rank {@code rank}'s row: a fixed permutation, so popular rows fall in different blocks. */
  private static int scatter(int rank) {
    return (int) ((rank * 2_654_435_761L) % ROWS);
  }

  private static byte[] row(int i) {
    return String.format("row-%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** Zipf-distributed ranks over {@code n} items by inverse transform of the cumulative weights. */
  private static final class Zipfian {
    private final double[] cumulative;

    Zipfian(int n, double exponent) {
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
