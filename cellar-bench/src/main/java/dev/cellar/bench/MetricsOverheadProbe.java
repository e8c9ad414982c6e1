package dev.cellar.bench;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.RowReader;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

/**
 * The cost of the operation metrics on a cached Get, measured so that a busy machine does not drown
 * it: two databases with the same rows, one recording metrics and tracking the block cache's
 * miss-ratio curve and one doing neither, read in alternating slices of {@value #SLICE_MILLIS} ms
 * on one thread, so both see the same background load; the result is each side's median time per
 * Get over the slices and their ratio. (A JMH run with the two settings as a parameter measures
 * them minutes apart, and on a shared machine the load changes more in minutes than the difference
 * to measure.)
 *
 * <p>Run: {@code java -cp <cellar-bench classpath> dev.cellar.bench.MetricsOverheadProbe
 * [seconds]}.
 */
public final class MetricsOverheadProbe {

  private static final int ROWS = 50_000;
  private static final long SLICE_MILLIS = 200;

  private MetricsOverheadProbe() {}

  public static void main(String[] args) throws IOException {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    try (TempDir dir = new TempDir("cellar-metrics-probe-");
        Cellar on = open(dir, "on", true);
        Cellar off = open(dir, "off", false);
        RowReader onReader = on.table("t").rowReader();
        RowReader offReader = off.table("t").rowReader()) {
      RandomKeys onKeys = new RandomKeys(11, ROWS);
      RandomKeys offKeys = new RandomKeys(11, ROWS);
      byte[][] keys = keys();
      byte[] value = new byte[1000];
      Get onGet = new Get(keys[0]).addColumn(PeCells.FAMILY, PeCells.QUALIFIER);
      Get offGet = new Get(keys[0]).addColumn(PeCells.FAMILY, PeCells.QUALIFIER);
      for (int warm = 0; warm < 10; warm++) {
        slice(onReader, onGet, keys, onKeys, value);
        slice(offReader, offGet, keys, offKeys, value);
      }
      int slices = (int) (seconds * 1000 / SLICE_MILLIS / 2);
      double[] onNanos = new double[slices];
      double[] offNanos = new double[slices];
      for (int i = 0; i < slices; i++) {
        if (i % 2 == 0) {
          onNanos[i] = slice(onReader, onGet, keys, onKeys, value);
          offNanos[i] = slice(offReader, offGet, keys, offKeys, value);
        } else {
          offNanos[i] = slice(offReader, offGet, keys, offKeys, value);
          onNanos[i] = slice(onReader, onGet, keys, onKeys, value);
        }
      }
      double onMedian = median(onNanos);
      double offMedian = median(offNanos);
      System.out.printf(
          "cached Get, median of %d slices of %d ms each: metrics on %.1f ns,"
              + " off %.1f ns, on/off %.4f%n",
          slices, SLICE_MILLIS, onMedian, offMedian, onMedian / offMedian);
      double[] ratios = new double[slices];
      for (int i = 0; i < slices; i++) {
        ratios[i] = onNanos[i] / offNanos[i];
      }
      Arrays.sort(ratios);
      System.out.printf(
          "per-pair on/off ratio: median %.4f, quartiles %.4f to %.4f%n",
          median(ratios), ratios[slices / 4], ratios[slices * 3 / 4]);
    }
  }

  /** Gets for one slice; returns ns per Get. */
  private static double slice(
      RowReader reader, Get get, byte[][] keys, RandomKeys random, byte[] value)
      throws IOException {
    long start = System.nanoTime();
    long end = start + SLICE_MILLIS * 1_000_000;
    long gets = 0;
    long now;
    do {
      for (int i = 0; i < 256; i++) {
        reader
            .getView(get.setRow(keys[random.next()]))
            .copyValue(PeCells.FAMILY, PeCells.QUALIFIER, value, 0);
      }
      gets += 256;
      now = System.nanoTime();
    } while (now < end);
    return (double) (now - start) / gets;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static byte[][] keys() {
    byte[][] keys = new byte[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      keys[i] = PeCells.row(i);
    }
    return keys;
  }

  private static Cellar open(TempDir dir, String name, boolean metrics) throws IOException {
    Cellar cellar =
        Cellar.open(
            dir.resolve(name),
            CellarConfig.defaults()
                .with("hfile.block.cache.memory.size", Long.toString(2L * ROWS * 1026))
                .with("cellar.metrics.enabled", Boolean.toString(metrics))
                .with(MissRatioCurveTracker.ENABLED_KEY, Boolean.toString(metrics)));
    cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("info")));
    Table table = cellar.table("t");
    Random random = new Random(7);
    for (int i = 0; i < ROWS; i++) {
      table.put(
          new Put(PeCells.row(i))
              .addColumn(PeCells.FAMILY, PeCells.QUALIFIER, PeCells.value(random, 1000))
              .setDurability(Durability.SKIP_WAL));
    }
    cellar.admin().flush("t");
    cellar.admin().majorCompact("t");
    try (RowReader reader = table.rowReader()) {
      Get get = new Get(PeCells.row(0)).addColumn(PeCells.FAMILY, PeCells.QUALIFIER);
      for (int i = 0; i < ROWS; i++) {
        reader.getView(get.setRow(PeCells.row(i)));
      }
    }
    return cellar;
  }
}
