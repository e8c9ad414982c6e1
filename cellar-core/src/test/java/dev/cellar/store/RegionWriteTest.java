package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.Settings;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.row.CollectedRow;
import dev.cellar.schema.Durability;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.ForceGate;
import dev.cellar.store.wal.WalStats;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region's write path with a log whose forces a test can hold ({@link ForceGate}): writers of
 * rows on one lock stripe queue their entries while another writer's sync is in flight and share
 * the next force; nothing is readable before it is durable; a flush started meanwhile holds no
 * writer back; a read-modify-write sees a write whose sync was in flight; a batch is one log entry
 * whose repeated rows apply in order, live and after replay.
 */
class RegionWriteTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final String TABLE = "t";
  private static final long WAIT_MILLIS = 10_000;

  @TempDir Path directory;

  private final ForceGate gate = new ForceGate();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private ChunkPool chunkPool;
  private WriteAheadLog wal;
  private Region region;

  @BeforeEach
  void open() throws IOException {
    MemStoreConfig memStoreConfig = MemStoreConfig.from(Settings.empty());
    chunkPool = new ChunkPool(memStoreConfig);
    wal = gate.openLog(directory.resolve("wal"));
    region = openRegion(memStoreConfig);
  }

  private Region openRegion(MemStoreConfig memStoreConfig) throws IOException {
    Region.Services services =
        InlineServices.of(Storage.local(), wal, null, BufAllocator.HEAP, chunkPool, memStoreConfig);
    FamilySettings family =
        new FamilySettings(
            FAMILY,
            HFileContext.builder().includesMvcc(true).build(),
            false,
            true,
            3,
            Long.MAX_VALUE,
            0);
    return Region.open(directory.resolve(TABLE), TABLE, List.of(family), services, 0);
  }

  @AfterEach
  void close() throws IOException {
    gate.open();
    threads.shutdownNow();
    region.close();
    wal.close();
    chunkPool.close();
  }

  private static KeyValue cell(byte[] row, String value) {
    return KeyValue.create(
        row, FAMILY, QUALIFIER, KeyValue.LATEST_TIMESTAMP, CellType.PUT, Bytes.toBytes(value));
  }

  private static RowMutation put(byte[] row, String value) {
    return new RowMutation(row, List.of(cell(row, value)), Durability.SYNC_WAL);
  }

  private Future<?> write(List<RowMutation> batch) {
    return threads.submit(
        () -> {
          region.mutate(batch, System.currentTimeMillis());
          return null;
        });
  }

  /** The newest value of f:q in {@code row}, or null. */
  private String value(byte[] row) throws IOException {
    ScanRequest get =
        new ScanRequest(
            row,
            row,
            true,
            Map.of("f", List.of(QUALIFIER)),
            1,
            0,
            Long.MAX_VALUE,
            null,
            true,
            row,
            false);
    CollectedRow cells = new CollectedRow();
    try (RegionScanner scanner = region.scanner(get)) {
      return scanner.next(cells) ? Bytes.toString(cells.get(0).valueArray()) : null;
    } finally {
      cells.clear();
    }
  }

  /** {@code count} distinct rows that share one lock stripe. */
  private static List<byte[]> rowsOnOneStripe(int count) {
    List<byte[]> rows = new ArrayList<>();
    int stripe = RowLocks.stripeOf(Bytes.toBytes("row-0"));
    for (int i = 0; rows.size() < count; i++) {
      byte[] row = Bytes.toBytes("row-" + i);
      if (RowLocks.stripeOf(row) == stripe) {
        rows.add(row);
      }
    }
    return rows;
  }

  private static boolean awaitTrue(LongSupplier value, long atLeast) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
    while (value.getAsLong() < atLeast) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(1);
    }
    return true;
  }

  @Test
  void writersOfOneStripeShareForcesAndNothingIsReadBeforeItIsDurable() throws Exception {
    List<byte[]> rows = rowsOnOneStripe(9);
    long firstId = wal.lastSequenceId() + 1;
    WalStats before = wal.stats();
    gate.shut();
    List<Future<?>> writes = new ArrayList<>();
    writes.add(write(List.of(put(rows.get(0), "v0"))));
    assertTrue(gate.awaitWaiting(1, WAIT_MILLIS), "the first writer's force is held");
    for (int i = 1; i < 8; i++) {
      writes.add(write(List.of(put(rows.get(i), "v" + i))));
    }
    assertTrue(
        awaitTrue(wal::lastSequenceId, firstId + 7),
        "writers of the same stripe queue their entries while the first sync is in flight");
    for (byte[] row : rows) {
      assertNull(value(row), "a write is not readable before it is durable");
    }

    Future<?> flush =
        threads.submit(
            () -> {
              region.flush();
              return null;
            });
    Thread.sleep(50);
    writes.add(write(List.of(put(rows.get(8), "v8"))));
    assertTrue(
        awaitTrue(wal::lastSequenceId, firstId + 8),
        "a flush waiting for a sync in flight holds no writer back");
    assertEquals(
        0,
        region.stores().get(0).fileCount(),
        "the flush adds no file while writes it holds are not durable");
    assertFalse(flush.isDone());

    gate.open();
    for (Future<?> write : writes) {
      write.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    }
    flush.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    for (int i = 0; i < rows.size(); i++) {
      assertEquals("v" + i, value(rows.get(i)), "row " + i);
    }
    assertEquals(1, region.stores().get(0).fileCount());
    WalStats after = wal.stats();
    assertEquals(9, after.entriesWritten() - before.entriesWritten());
    assertTrue(
        after.forces() - before.forces() <= 4,
        "nine writers share a few forces instead of one each: " + before + " -> " + after);

    reopenWithoutFlushing();
    for (int i = 0; i < rows.size(); i++) {
      assertEquals("v" + i, value(rows.get(i)), "row " + i + " after replay");
    }
  }

  @Test
  void checkAndMutateSeesAWriteWhoseSyncIsInFlight() throws Exception {
    byte[] row = Bytes.toBytes("checked");
    region.mutate(List.of(put(row, "old")), System.currentTimeMillis());
    gate.shut();
    Future<?> write = write(List.of(put(row, "new")));
    assertTrue(gate.awaitWaiting(1, WAIT_MILLIS));
    Future<Boolean> swap =
        threads.submit(
            () ->
                region.checkAndMutate(
                    row,
                    FAMILY,
                    QUALIFIER,
                    current -> Arrays.equals(current, Bytes.toBytes("new")),
                    List.of(cell(row, "swapped")),
                    Durability.SYNC_WAL,
                    System.currentTimeMillis()));
    Thread.sleep(100);
    assertFalse(swap.isDone(), "the check waits for the write in flight on its row");
    gate.open();
    write.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    assertTrue(swap.get(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the check saw the newer value");
    assertEquals("swapped", value(row));
  }

  @Test
  void aBatchIsOneEntryAndItsRepeatedRowsApplyInOrder() throws Exception {
    byte[] a = Bytes.toBytes("a");
    byte[] b = Bytes.toBytes("b");
    WalStats before = wal.stats();
    region.mutate(
        List.of(
            put(a, "first"),
            put(b, "b1"),
            new RowMutation(a, List.of(cell(a, "second")), Durability.ASYNC_WAL),
            new RowMutation(b, List.of(cell(b, "b2")), Durability.SKIP_WAL)),
        System.currentTimeMillis());
    WalStats after = wal.stats();
    assertEquals(1, after.entriesWritten() - before.entriesWritten(), "one entry");
    assertEquals(1, after.forces() - before.forces(), "one force");
    assertEquals("second", value(a));
    assertEquals("b2", value(b));

    region.mutate(
        List.of(new RowMutation(a, List.of(cell(a, "unlogged")), Durability.SKIP_WAL)),
        System.currentTimeMillis());
    assertEquals(after.entriesWritten(), wal.stats().entriesWritten(), "SKIP_WAL logs nothing");

    reopenWithoutFlushing();
    assertEquals("second", value(a), "replay applies the entry's cells in order");
    assertEquals("b2", value(b));
  }

  /** Drops the region without a flush and opens it again: what a crash leaves, replayed. */
  private void reopenWithoutFlushing() throws IOException {
    region.abort();
    region = openRegion(MemStoreConfig.from(Settings.empty()));
  }
}
