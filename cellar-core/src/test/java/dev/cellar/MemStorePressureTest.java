package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.metrics.RegionStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limit on all MemStores together ({@code hbase.regionserver.offheap.global.memstore.size}):
 * writes spread over many regions, none reaching its own flush size, are flushed once the total
 * passes the limit, and never held much above it; under a limit they do not reach, nothing is
 * flushed.
 */
class MemStorePressureTest {

  private static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);
  private static final int REGIONS = 16;

  @TempDir Path dir;

  private static byte[][] splits() {
    byte[][] keys = new byte[REGIONS - 1][];
    for (int i = 1; i < REGIONS; i++) {
      keys[i - 1] = String.format("r%02d", i).getBytes(StandardCharsets.UTF_8);
    }
    return keys;
  }

  /** Writes 1 KiB values round-robin over the regions: {@code kib} KiB in all. */
  private static void write(Cellar cellar, int kib) throws IOException {
    byte[] value = new byte[1024];
    for (int i = 0; i < kib; i++) {
      byte[] row = String.format("r%02d-%06d", i % REGIONS, i).getBytes(StandardCharsets.UTF_8);
      cellar.table("t").put(new Put(row).addColumn(F, F, value));
    }
  }

  private static long memStoreBytes(Cellar cellar) {
    return cellar.engine().regionStats("t").stream().mapToLong(RegionStats::memStoreBytes).sum();
  }

  private static int storeFiles(Cellar cellar) {
    return cellar.engine().regionStats("t").stream().mapToInt(RegionStats::storeFiles).sum();
  }

  @Test
  void manySmallRegionsAreFlushedOnceTheirTotalPassesTheLimit() throws IOException {
    CellarConfig config =
        CellarConfig.defaults().with("hbase.regionserver.offheap.global.memstore.size", "4");
    try (Cellar cellar = Cellar.open(dir, config)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")), splits());
      write(cellar, 12 * 1024);
      long limit = 4L << 20;
      assertTrue(
          memStoreBytes(cellar) <= limit + (1L << 20),
          "MemStores hold " + memStoreBytes(cellar) + " bytes over a limit of " + limit);
      assertTrue(storeFiles(cellar) >= 2, storeFiles(cellar) + " files flushed");
    }
  }

  @Test
  void underTheLimitNothingIsFlushedBeforeEachRegionsOwnSize() throws IOException {
    CellarConfig config =
        CellarConfig.defaults().with("hbase.regionserver.offheap.global.memstore.size", "512");
    try (Cellar cellar = Cellar.open(dir, config)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")), splits());
      write(cellar, 4 * 1024);
      assertEquals(0, storeFiles(cellar));
    }
  }
}
