package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.filter.CompareOperator;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A known workload moves the operation metrics by exactly its counts: puts, deletes, batches, gets,
 * multi-gets, scanned rows, check-and-mutates, flushes, compactions and log forces.
 */
class CellarMetricsTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] row(int i) {
    return bytes(String.format("row-%05d", i));
  }

  @Test
  void aKnownWorkloadMovesEachFigureByItsCount() throws IOException {
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      EngineMetrics metrics = cellar.metrics();
      long forcesBefore = cellar.wal().forceTimes().count();
      for (int i = 0; i < 30; i++) {
        table.put(new Put(row(i)).addColumn(FAMILY, QUALIFIER, bytes("v" + i)));
      }
      List<Put> batch = new ArrayList<>();
      for (int i = 30; i < 50; i++) {
        batch.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, bytes("v" + i)));
      }
      table.put(batch);
      table.delete(new Delete(row(0)));
      assertEquals(30, metrics.operations(Operation.PUT));
      assertEquals(1, metrics.operations(Operation.PUT_BATCH));
      assertEquals(1, metrics.operations(Operation.DELETE));
      assertEquals(30 + 20 + 1, metrics.count(Counter.WRITE_REQUESTS));
      assertTrue(
          cellar.wal().forceTimes().count() - forcesBefore >= 32,
          "every synced write forces the log once");

      for (int i = 0; i < 7; i++) {
        table.get(new Get(row(i))).close();
      }
      Result[] results = table.get(List.of(new Get(row(1)), new Get(row(2)), new Get(row(3))));
      for (Result result : results) {
        result.close();
      }
      assertEquals(7 + 3, metrics.operations(Operation.GET));
      assertEquals(1, metrics.operations(Operation.MULTI_GET));

      int scanned = 0;
      try (ResultScanner scanner = table.scanner(new Scan())) {
        for (Result result = scanner.next(); result != null; result = scanner.next()) {
          scanned++;
          result.close();
        }
      }
      assertEquals(49, scanned);
      assertEquals(49, metrics.operations(Operation.SCAN_NEXT));
      assertEquals(7 + 3 + 49, metrics.count(Counter.READ_REQUESTS));

      assertTrue(
          table.checkAndMutate(
              FAMILY,
              QUALIFIER,
              CompareOperator.EQUAL,
              bytes("v5"),
              new Put(row(5)).addColumn(FAMILY, QUALIFIER, bytes("w5"))));
      assertEquals(1, metrics.count(Counter.CHECK_MUTATE_PASSED));
      assertEquals(1, metrics.operations(Operation.CHECK_AND_MUTATE));
      assertEquals(
          7 + 3 + 49,
          metrics.count(Counter.READ_REQUESTS),
          "the check's read is not a scanned row");

      cellar.admin().flush("t");
      assertEquals(1, metrics.operations(Operation.FLUSH));
      assertTrue(metrics.count(Counter.FLUSHED_MEMSTORE_BYTES) > 0);
      assertTrue(metrics.count(Counter.FLUSHED_OUTPUT_BYTES) > 0);
      table.put(new Put(row(60)).addColumn(FAMILY, QUALIFIER, bytes("late")));
      cellar.admin().flush("t");
      assertEquals(2, metrics.operations(Operation.FLUSH));
      cellar.admin().majorCompact("t");
      assertEquals(1, metrics.operations(Operation.MAJOR_COMPACTION));
    }
  }

  @Test
  void getsAreCountedExactlyAndTimedInASample() throws IOException {
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      table.put(new Put(row(1)).addColumn(FAMILY, QUALIFIER, bytes("v")));
      int gets = 4_000;
      for (int i = 0; i < gets; i++) {
        table.get(new Get(row(1))).close();
      }
      EngineMetrics metrics = cellar.metrics();
      assertEquals(gets, metrics.operations(Operation.GET));
      long timed = metrics.snapshot(Operation.GET).count();
      // one in 8 on average: 500, with a standard deviation of about 21
      assertTrue(timed > 350 && timed < 650, timed + " of " + gets + " gets timed");
    }
  }

  @Test
  void disabledMetricsRecordNothing() throws IOException {
    try (Cellar cellar =
        Cellar.open(directory, CellarConfig.defaults().with("cellar.metrics.enabled", "false"))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      table.put(new Put(row(1)).addColumn(FAMILY, QUALIFIER, bytes("v")));
      table.get(new Get(row(1))).close();
      assertEquals(0, cellar.metrics().operations(Operation.GET));
      assertEquals(0, cellar.metrics().operations(Operation.PUT));
      assertEquals(0, cellar.metrics().count(Counter.WRITE_REQUESTS));
    }
  }
}
