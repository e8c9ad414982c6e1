package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.filter.CompareOperator;
import dev.cellar.metrics.RegionStats;
import dev.cellar.spi.Engine;
import dev.cellar.spi.EngineAccess;
import dev.cellar.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's region figures ({@link Engine#regionStats}, what {@code cellar serve} reports as
 * HBase's RegionLoad): each table counts its own rows read and written, by exactly the workload's
 * counts, and not at all with metrics off; the files' count, bytes, index and bloom sizes follow
 * flushes and compactions; the oldest major-compacted file's time and the flushed log ids are the
 * files'.
 */
class RegionStatsTest {

  private static final byte[] F = bytes("f");
  private static final byte[] Q = bytes("q");

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] row(int i) {
    return bytes(String.format("row-%05d", i));
  }

  private static long fileBytes(Cellar cellar, String table) throws IOException {
    long sum = 0;
    for (Store store : ((CellarTable) cellar.table(table)).regions().getFirst().stores()) {
      for (Path file : store.filePaths()) {
        sum += Files.size(file);
      }
    }
    return sum;
  }

  @Test
  void eachTableCountsItsOwnReadsAndWrites() throws IOException {
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      cellar.admin().createTable(TableDescriptor.of("u", ColumnFamilyDescriptor.of("f")));
      Engine engine = EngineAccess.engine(cellar);
      Table table = cellar.table("t");
      for (int i = 0; i < 30; i++) {
        table.put(new Put(row(i)).addColumn(F, Q, bytes("v" + i)));
      }
      List<Put> batch = new ArrayList<>();
      for (int i = 30; i < 50; i++) {
        batch.add(new Put(row(i)).addColumn(F, Q, bytes("v" + i)));
      }
      table.put(batch);
      assertTrue(
          table.checkAndMutate(
              F,
              Q,
              CompareOperator.EQUAL,
              bytes("v5"),
              new Put(row(5)).addColumn(F, Q, bytes("w5"))));
      assertEquals(30 + 20 + 1, engine.regionStats("t").getFirst().writeRequests());

      for (int i = 0; i < 7; i++) {
        table.get(new Get(row(i))).close();
      }
      for (Result result : table.get(List.of(new Get(row(1)), new Get(row(99))))) {
        result.close();
      }
      try (ResultScanner scanner = table.scanner(new Scan())) {
        for (Result result = scanner.next(); result != null; result = scanner.next()) {
          result.close();
        }
      }
      assertEquals(
          7 + 2 + 50,
          engine.regionStats("t").getFirst().readRequests(),
          "gets found or not, and scanned rows; not the check's read");
      assertEquals(0, engine.regionStats("u").getFirst().readRequests());
      assertEquals(0, engine.regionStats("u").getFirst().writeRequests());
      assertTrue(engine.regionStats("nosuch").isEmpty());
    }
  }

  @Test
  void filesIndexesBloomsAndMarksFollowFlushesAndCompactions() throws IOException {
    long start = System.currentTimeMillis();
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("f"), ColumnFamilyDescriptor.of("g")));
      Engine engine = EngineAccess.engine(cellar);
      RegionStats empty = engine.regionStats("t").getFirst();
      assertEquals(2, empty.stores());
      assertEquals(0, empty.storeFiles());
      assertEquals(0, empty.storeFileBytes());
      assertEquals(0, empty.memStoreBytes());
      assertEquals(0, empty.lastMajorCompactionMillis());
      assertEquals(List.of("f", "g"), List.copyOf(empty.familyFlushedWalIds().keySet()));

      Table table = cellar.table("t");
      for (int i = 0; i < 100; i++) {
        table.put(new Put(row(i)).addColumn(F, Q, new byte[100]));
      }
      assertTrue(engine.regionStats("t").getFirst().memStoreBytes() > 100 * 100);
      cellar.admin().flush("t");
      RegionStats flushed = engine.regionStats("t").getFirst();
      assertEquals(0, flushed.memStoreBytes());
      assertEquals(1, flushed.storeFiles(), "g had nothing to flush");
      assertEquals(fileBytes(cellar, "t"), flushed.storeFileBytes());
      assertTrue(flushed.uncompressedBytes() > 100 * 100);
      assertTrue(flushed.rootIndexBytes() > 0);
      assertTrue(flushed.indexBytes() > 0);
      assertTrue(flushed.bloomBytes() > 0, "a ROW bloom, the default");
      assertEquals(0, flushed.lastMajorCompactionMillis(), "a flushed file is not major-compacted");
      assertTrue(flushed.flushedWalId() > empty.flushedWalId());
      assertEquals(
          flushed.flushedWalId(),
          flushed.familyFlushedWalIds().values().stream()
              .mapToLong(Long::longValue)
              .min()
              .orElseThrow());

      for (int i = 100; i < 200; i++) {
        table.put(new Put(row(i)).addColumn(F, Q, new byte[100]));
      }
      cellar.admin().flush("t");
      assertEquals(2, engine.regionStats("t").getFirst().storeFiles());
      cellar.admin().majorCompact("t");
      RegionStats compacted = engine.regionStats("t").getFirst();
      assertEquals(1, compacted.storeFiles());
      assertEquals(fileBytes(cellar, "t"), compacted.storeFileBytes());
      assertTrue(
          compacted.lastMajorCompactionMillis() >= start
              && compacted.lastMajorCompactionMillis() <= System.currentTimeMillis());
    }
  }

  @Test
  void withMetricsOffNothingIsCountedButSizesAreKept() throws IOException {
    try (Cellar cellar =
        Cellar.open(directory, CellarConfig.defaults().with("cellar.metrics.enabled", "false"))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      table.put(new Put(row(1)).addColumn(F, Q, bytes("v")));
      table.get(new Get(row(1))).close();
      RegionStats stats = EngineAccess.engine(cellar).regionStats("t").getFirst();
      assertEquals(0, stats.readRequests());
      assertEquals(0, stats.writeRequests());
      assertTrue(stats.memStoreBytes() > 0);
    }
  }
}
