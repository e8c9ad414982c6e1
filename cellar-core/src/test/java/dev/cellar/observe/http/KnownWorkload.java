package dev.cellar.observe.http;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cache.MissRatioCurveTracker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * A database with L1 and an off-heap L2 (or, {@link #withoutL2}, the L1 alone), its info server on
 * a free port, and a workload of known counts: {@link #ROWS} puts, one flush, then two passes of
 * Gets over every row. The miss-ratio curve samples every block, so its figures are exact.
 */
final class KnownWorkload {

  static final int ROWS = 300;
  static final int GET_PASSES = 2;
  static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);

  private KnownWorkload() {}

  static CellarConfig config() {
    return withoutL2()
        .with("hbase.bucketcache.ioengine", "offheap")
        .with("hbase.bucketcache.size", "32");
  }

  static CellarConfig withoutL2() {
    return CellarConfig.defaults()
        .with("hfile.block.cache.memory.size", "8m")
        .with(InfoServerConfig.PORT_KEY, "0")
        .with(InfoServerConfig.SAMPLE_INTERVAL_KEY, "100000")
        .with(MissRatioCurveTracker.RATE_KEY, "1");
  }

  /** No block cache at all: {@code hfile.block.cache.size} 0. */
  static CellarConfig withoutBlockCache() {
    return CellarConfig.defaults()
        .with("hfile.block.cache.size", "0")
        .with(InfoServerConfig.PORT_KEY, "0")
        .with(InfoServerConfig.SAMPLE_INTERVAL_KEY, "100000")
        .with(MissRatioCurveTracker.RATE_KEY, "1");
  }

  static Cellar openAndRun(Path directory) throws IOException {
    return openAndRun(directory, config());
  }

  static Cellar openAndRun(Path directory, CellarConfig config) throws IOException {
    Cellar cellar = Cellar.open(directory, config);
    try {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of("t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "1024"))));
      Table table = cellar.table("t");
      for (int i = 0; i < ROWS; i++) {
        table.put(new Put(row(i)).addColumn(FAMILY, FAMILY, new byte[100 + i]));
      }
      cellar.admin().flush("t");
      for (int pass = 0; pass < GET_PASSES; pass++) {
        for (int i = 0; i < ROWS; i++) {
          try (Result result = table.get(new Get(row(i)))) {
            if (result.isEmpty()) {
              throw new AssertionError("row " + i + " missing");
            }
          }
        }
      }
      return cellar;
    } catch (IOException | RuntimeException | AssertionError e) {
      cellar.close();
      throw e;
    }
  }

  static byte[] row(int i) {
    return String.format("row-%05d", i).getBytes(StandardCharsets.UTF_8);
  }
}
