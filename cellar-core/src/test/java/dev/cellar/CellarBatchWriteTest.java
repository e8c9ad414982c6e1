package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.schema.Durability;
import dev.cellar.store.wal.WalStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Table.put(List)} and {@code Table.batch} write one log entry and sync once per call,
 * whatever the number of rows, with the strongest durability in the batch; later mutations of a row
 * in a batch win; a bad mutation rejects the whole batch before anything is written.
 */
class CellarBatchWriteTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");
  private static final byte[] OTHER = bytes("other");

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] row(int i) {
    return bytes(String.format("row-%05d", i));
  }

  private static String value(Table table, byte[] row, byte[] qualifier) throws IOException {
    try (Result result = table.get(new Get(row))) {
      byte[] value = result.getValue(FAMILY, qualifier);
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
  }

  private Cellar open() throws IOException {
    return Cellar.open(directory, CellarConfig.defaults());
  }

  @Test
  void aBatchOfPutsIsOneLogEntryAndOneSync() throws IOException {
    try (Cellar cellar = open()) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      for (int batch = 0; batch < 5; batch++) {
        List<Put> puts = new ArrayList<>();
        for (int i = batch * 100; i < (batch + 1) * 100; i++) {
          puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, bytes("value " + i)));
        }
        WalStats before = cellar.walStats();
        table.put(puts);
        WalStats after = cellar.walStats();
        assertEquals(
            1, after.entriesWritten() - before.entriesWritten(), "entries of batch " + batch);
        assertEquals(1, after.forces() - before.forces(), "forces of batch " + batch);
      }
      for (int i = 0; i < 500; i++) {
        assertEquals("value " + i, value(table, row(i), QUALIFIER));
      }
    }
  }

  @Test
  void aMixedBatchIsSyncedOnceAndAppliesInOrder() throws IOException {
    try (Cellar cellar = open()) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      table.put(new Put(row(3)).addColumn(FAMILY, QUALIFIER, bytes("doomed")));
      WalStats before = cellar.walStats();
      table.batch(
          List.of(
              new Put(row(1))
                  .addColumn(FAMILY, QUALIFIER, bytes("first"))
                  .setDurability(Durability.SKIP_WAL),
              new Put(row(2))
                  .addColumn(FAMILY, QUALIFIER, bytes("two"))
                  .setDurability(Durability.ASYNC_WAL),
              new Put(row(1)).addColumn(FAMILY, QUALIFIER, bytes("second")),
              new Put(row(1)).addColumn(FAMILY, OTHER, bytes("other column")),
              new Delete(row(3)).addColumns(FAMILY, QUALIFIER)));
      WalStats after = cellar.walStats();
      assertEquals(1, after.entriesWritten() - before.entriesWritten());
      assertEquals(1, after.forces() - before.forces(), "SYNC_WAL is the batch's durability");
      assertEquals("second", value(table, row(1), QUALIFIER), "the later put of a column wins");
      assertEquals("other column", value(table, row(1), OTHER));
      assertEquals("two", value(table, row(2), QUALIFIER));
      assertNull(value(table, row(3), QUALIFIER));

      WalStats unlogged = cellar.walStats();
      table.put(
          List.of(
              new Put(row(4))
                  .addColumn(FAMILY, QUALIFIER, bytes("four"))
                  .setDurability(Durability.SKIP_WAL)));
      assertEquals(
          unlogged.entriesWritten(),
          cellar.walStats().entriesWritten(),
          "a batch of SKIP_WAL writes logs nothing");
    }
    try (Cellar cellar = open()) {
      Table table = cellar.table("t");
      assertEquals("second", value(table, row(1), QUALIFIER));
      assertEquals("four", value(table, row(4), QUALIFIER));
    }
  }

  @Test
  void aBadMutationRejectsTheWholeBatch() throws IOException {
    try (Cellar cellar = open()) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      WalStats before = cellar.walStats();
      List<Put> puts =
          List.of(
              new Put(row(1)).addColumn(FAMILY, QUALIFIER, bytes("x")),
              new Put(row(2)).addColumn(bytes("nope"), QUALIFIER, bytes("y")));
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> table.put(puts));
      assertTrue(error.getMessage().contains("has no family nope"), error.getMessage());
      assertThrows(
          IllegalArgumentException.class,
          () ->
              table.batch(
                  List.of(
                      new Put(row(1)).addColumn(FAMILY, QUALIFIER, bytes("x")), new Put(row(2)))));
      try (Result result = table.get(new Get(row(1)))) {
        assertTrue(result.isEmpty(), "nothing of a rejected batch is applied");
      }
      table.put(List.of());
      assertEquals(before.entriesWritten(), cellar.walStats().entriesWritten());
    }
  }
}
