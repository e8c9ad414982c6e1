package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hbase.block.data.cachecompressed} end to end: a SNAPPY family's rows read back the same
 * through Table.get, a RowReader and a scan with the data blocks cached compressed, in the L1 and
 * in an off-heap L2, and the cache holds fewer bytes than with the setting off.
 */
class CompressedCachingTest {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 3000;

  @TempDir Path directory;

  private static byte[] row(int i) {
    return String.format("row-%08d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** Compressible values: letter runs, as PE writes. */
  private static byte[] value(int i) {
    byte[] value = new byte[500];
    Arrays.fill(value, (byte) ('a' + i % 26));
    return value;
  }

  private long cachedBytes(String tier, boolean compressed) throws IOException {
    Path dir = directory.resolve(tier + "-" + compressed);
    CellarConfig config =
        CellarConfig.defaults()
            .with("hfile.block.cache.memory.size", "32m")
            .with("hbase.block.data.cachecompressed", Boolean.toString(compressed));
    if (tier.equals("l2")) {
      config =
          config.with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "64");
    }
    try (Cellar cellar = Cellar.open(dir, config)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t",
                  ColumnFamilyDescriptor.of(
                      "f", Map.of("COMPRESSION", "SNAPPY", "BLOCKSIZE", "16384"))));
      Table table = cellar.table("t");
      for (int i = 0; i < ROWS; i++) {
        table.put(
            new Put(row(i))
                .addColumn(FAMILY, QUALIFIER, value(i))
                .setDurability(Durability.SKIP_WAL));
      }
      cellar.admin().flush("t");
      Get get = new Get(row(0)).addColumn(FAMILY, QUALIFIER);
      for (int pass = 0; pass < 2; pass++) {
        try (RowReader reader = table.rowReader()) {
          for (int i = 0; i < ROWS; i += 7) {
            try (Result result = table.get(new Get(row(i)))) {
              assertArrayEquals(value(i), result.getValue(FAMILY, QUALIFIER), "row " + i);
            }
            assertArrayEquals(
                value(i),
                reader.getView(get.setRow(row(i))).getValue(FAMILY, QUALIFIER),
                "row " + i);
          }
        }
        int scanned = 0;
        try (ResultScanner scanner = table.scanner(new Scan())) {
          for (Result result : scanner) {
            try (result) {
              assertArrayEquals(value(scanned), result.getValue(FAMILY, QUALIFIER));
              scanned++;
            }
          }
        }
        assertEquals(ROWS, scanned);
      }
      waitForWriters(cellar);
      return cellar.blockCache().size();
    }
  }

  /** The L2 writes its queue in the background; its size settles once the queue is empty. */
  private static void waitForWriters(Cellar cellar) throws IOException {
    long size = -1;
    for (int i = 0; i < 100 && size != cellar.blockCache().size(); i++) {
      size = cellar.blockCache().size();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"l1", "l2"})
  void rowsReadBackWithDataBlocksCachedCompressed(String tier) throws IOException {
    long unpacked = cachedBytes(tier, false);
    long packed = cachedBytes(tier, true);
    assertTrue(
        packed < unpacked / 2,
        tier + ": cached " + packed + " bytes compressed vs " + unpacked + " bytes uncompressed");
  }
}
