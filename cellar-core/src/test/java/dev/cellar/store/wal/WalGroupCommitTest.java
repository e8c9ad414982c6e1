package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import dev.cellar.store.wal.WalTestSupport.Expected;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent {@link Durability#SYNC_WAL} appenders get distinct, increasing ids, every entry
 * replays, and they share forces: the log prints the measured batching and throughput.
 */
class WalGroupCommitTest {

  private static final int THREADS = 8;
  private static final int APPENDS_PER_THREAD = 150;

  @TempDir Path directory;

  /** The cells writer {@code thread} appends as its {@code k}-th entry. */
  static List<KeyValue> cells(int thread, int k) {
    return List.of(
        KeyValue.create(
            Bytes.toBytes("row-" + thread + "-" + k),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            k,
            CellType.PUT,
            new byte[100 + k % 50]));
  }

  @Test
  void concurrentSyncAppendersShareForcesAndAllReplay() throws Exception {
    Map<Integer, List<Long>> idsByThread = new HashMap<>();
    WalStats stats;
    long nanos;
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  List<Long> ids = new ArrayList<>();
                  start.await();
                  for (int k = 0; k < APPENDS_PER_THREAD; k++) {
                    ids.add(wal.append("writer-" + thread, cells(thread, k), Durability.SYNC_WAL));
                  }
                  return ids;
                }));
      }
      long begin = System.nanoTime();
      start.countDown();
      for (int t = 0; t < THREADS; t++) {
        idsByThread.put(t, results.get(t).get());
      }
      nanos = System.nanoTime() - begin;
      pool.shutdown();
      stats = wal.stats();
    }
    Set<Long> all = new HashSet<>();
    for (List<Long> ids : idsByThread.values()) {
      for (int i = 1; i < ids.size(); i++) {
        assertTrue(ids.get(i) > ids.get(i - 1), "ids of one thread increase: " + ids);
      }
      all.addAll(ids);
    }
    assertEquals(THREADS * APPENDS_PER_THREAD, all.size(), "every id is distinct");
    System.out.printf(
        "WAL group commit: %d SYNC_WAL threads, %d appends in %d ms = %.0f appends/s,"
            + " %.1f entries per force (%d forces, %d batches)%n",
        THREADS,
        all.size(),
        nanos / 1_000_000,
        all.size() * 1e9 / nanos,
        stats.entriesPerForce(),
        stats.forces(),
        stats.batches());
    assertTrue(stats.entriesPerForce() > 1, "group commit batches entries: " + stats);

    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      List<Expected> replayed = WalTestSupport.replayAll(wal, 0);
      assertEquals(all.size(), replayed.size());
      for (Expected entry : replayed) {
        int thread = Integer.parseInt(entry.table().substring("writer-".length()));
        int k = idsByThread.get(thread).indexOf(entry.sequenceId());
        assertTrue(k >= 0, "entry " + entry.sequenceId() + " was acknowledged to " + entry.table());
        WalTestSupport.assertSameEntry(
            WalTestSupport.expected(entry.table(), entry.sequenceId(), cells(thread, k)),
            entry,
            "replay after concurrent appends");
      }
    }
  }

  @Test
  void aSingleSyncAppenderPaysOneForcePerEntry() throws Exception {
    int appends = 300;
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      long begin = System.nanoTime();
      for (int k = 0; k < appends; k++) {
        wal.append("single", cells(0, k), Durability.SYNC_WAL);
      }
      long nanos = System.nanoTime() - begin;
      WalStats stats = wal.stats();
      System.out.printf(
          "WAL group commit: 1 SYNC_WAL thread, %d appends in %d ms = %.0f appends/s,"
              + " %.1f entries per force%n",
          appends, nanos / 1_000_000, appends * 1e9 / nanos, stats.entriesPerForce());
      assertEquals(appends, stats.entriesWritten());
      assertEquals(appends, stats.forces(), "each lone SYNC_WAL append is forced by itself");
      assertEquals(appends, wal.durableSequenceId());
    }
  }
}
