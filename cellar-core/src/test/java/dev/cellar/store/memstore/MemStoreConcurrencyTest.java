package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Four writers add while a scanner reads and a flusher snapshots and clears: every cell a reader
 * sees must be in order and byte for byte what was written, also when the snapshot it is reading is
 * cleared under it and its chunks could be reused (the pool is small, so they are).
 */
@ExtendWith(TestSeedExtension.class)
class MemStoreConcurrencyTest {

  private static final int WRITERS = 4;
  private static final int CELLS_PER_WRITER = 10_000;

  /** A written cell: its serialization and sequence id. */
  private record Written(byte[] bytes, long sequenceId) {}

  @Test
  void writersScannersAndFlushesAgreeOnEveryByte(TestSeed seed) throws Exception {
    MemStoreConfig config = new MemStoreConfig(true, 16 * 1024, 256, 128, 0, 1 << 20);
    Map<String, Written> written = new ConcurrentHashMap<>();
    Map<String, Written> flushed = new HashMap<>();
    AtomicLong sequenceIds = new AtomicLong();
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger threads = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            WRITERS + 2, task -> new Thread(task, "memstore-test-" + threads.getAndIncrement()));
    try (ChunkPool pool = new ChunkPool(config);
        MemStore memStore = new MemStore(config, pool)) {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < WRITERS; t++) {
        int writer = t;
        Random random = new Random(seed.value() + t);
        writers.add(
            executor.submit(
                () -> {
                  for (int i = 0; i < CELLS_PER_WRITER; i++) {
                    byte[] value = new byte[random.nextInt(400)];
                    random.nextBytes(value);
                    String row =
                        String.format(
                            "row-%08d-%d", random.nextInt(100_000_000), writer * 100_000 + i);
                    KeyValue cell =
                        KeyValue.create(
                            Bytes.toBytes(row),
                            Bytes.toBytes("f"),
                            Bytes.toBytes("q" + random.nextInt(3)),
                            i,
                            CellType.PUT,
                            value);
                    long sequenceId = sequenceIds.incrementAndGet();
                    written.put(
                        row,
                        new Written(cell.segment().toArray(ValueLayout.JAVA_BYTE), sequenceId));
                    memStore.add(cell, sequenceId);
                  }
                  return null;
                }));
      }
      Future<Integer> scanner =
          executor.submit(
              () -> {
                int scans = 0;
                Random random = new Random(seed.value() - 1);
                while (writing.get()) {
                  try (CellCursor cursor = TestCells.merge(memStore.getScanners(Long.MAX_VALUE))) {
                    Cell previous = null;
                    for (Cell cell = cursor.next(); cell != null; cell = cursor.next()) {
                      check(written, cell);
                      if (previous != null) {
                        assertTrue(
                            CellComparator.INSTANCE.compare(previous, cell) < 0,
                            previous + " before " + cell);
                      }
                      previous = KeyValue.copyOf(cell);
                      if (random.nextInt(500) == 0) {
                        KeyValue key =
                            KeyValue.firstOnRow(
                                Bytes.toBytes(
                                    String.format("row-%08d", random.nextInt(100_000_000))));
                        if (cursor.reseek(key)) {
                          assertTrue(CellComparator.INSTANCE.compare(cursor.peek(), key) >= 0);
                        }
                      }
                    }
                  }
                  scans++;
                }
                return scans;
              });
      Future<Integer> flusher =
          executor.submit(
              () -> {
                int flushes = 0;
                while (writing.get()) {
                  Thread.sleep(1);
                  MemStoreSnapshot snapshot = memStore.snapshot();
                  try (CellCursor cursor = snapshot.cursor()) {
                    for (Cell cell = cursor.next(); cell != null; cell = cursor.next()) {
                      check(written, cell);
                      flushed.put(
                          Bytes.toString(cell.rowArray()),
                          new Written(
                              KeyValue.copyOf(cell).segment().toArray(ValueLayout.JAVA_BYTE),
                              cell.sequenceId()));
                    }
                  }
                  memStore.clearSnapshot(snapshot.id());
                  flushes++;
                }
                return flushes;
              });
      for (Future<?> writer : writers) {
        writer.get();
      }
      writing.set(false);
      int scans = scanner.get();
      int flushes = flusher.get();
      System.out.println(
          "concurrency: "
              + scans
              + " full scans and "
              + flushes
              + " flushes during the writes; chunk pool "
              + pool.stats());

      Map<String, Written> stored = new HashMap<>(flushed);
      try (CellCursor cursor = TestCells.merge(memStore.getScanners(Long.MAX_VALUE))) {
        for (Cell cell = cursor.next(); cell != null; cell = cursor.next()) {
          check(written, cell);
          Written previous =
              stored.put(Bytes.toString(cell.rowArray()), new Written(null, cell.sequenceId()));
          assertEquals(null, previous, "flushed and still in the memstore: " + cell);
        }
      }
      assertEquals(WRITERS * CELLS_PER_WRITER, written.size());
      assertEquals(written.keySet(), stored.keySet(), "every cell is flushed or in the memstore");
      assertTrue(pool.stats().createdCount() <= config.poolMaxCount());
    } finally {
      executor.shutdownNow();
    }
  }

  /** Asserts that {@code cell} is, byte for byte and with its sequence id, a written cell. */
  private static void check(Map<String, Written> written, Cell cell) {
    Written expected = written.get(Bytes.toString(cell.rowArray()));
    assertNotNull(expected, "a cell nobody wrote: " + cell);
    assertEquals(expected.sequenceId(), cell.sequenceId());
    long mismatch =
        MemorySegment.mismatch(
            cell.segment(),
            cell.offset(),
            cell.offset() + cell.length(),
            MemorySegment.ofArray(expected.bytes()),
            0,
            expected.bytes().length);
    assertEquals(-1, mismatch, "bytes differ at " + mismatch + " in " + cell);
  }
}
