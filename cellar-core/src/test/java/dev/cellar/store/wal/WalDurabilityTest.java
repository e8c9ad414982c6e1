package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.io.Storage;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each durability writes and forces, and the sync thread's life. */
class WalDurabilityTest {

  @TempDir Path directory;

  private final Random random = new Random(13);

  private List<KeyValue> cells() {
    return List.of(WalTestSupport.randomCell(random));
  }

  private static void awaitDurable(WriteAheadLog wal, long id, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (wal.durableSequenceId() < id && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
  }

  @Test
  void asyncEntriesAreForcedTogetherWithinTheInterval() throws Exception {
    WalConfig config = WalConfig.defaults().withAsyncSyncIntervalMillis(300);
    try (WriteAheadLog wal = WriteAheadLog.open(directory, config)) {
      long begin = System.nanoTime();
      long last = 0;
      for (int i = 0; i < 100; i++) {
        last = wal.append("t", cells(), Durability.ASYNC_WAL);
      }
      awaitDurable(wal, last, 5000);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
      assertEquals(last, wal.durableSequenceId(), "forced within the interval");
      assertTrue(millis < 3000, "forced after " + millis + " ms");
      WalStats stats = wal.stats();
      assertEquals(100, stats.entriesWritten());
      assertTrue(stats.forces() <= 2, "deferred entries share forces: " + stats);
    }
  }

  @Test
  void fsyncWalForcesWithAnFsyncAndSyncWalWithTheCheaperForce() throws Exception {
    AtomicInteger syncs = new AtomicInteger();
    AtomicInteger dataSyncs = new AtomicInteger();
    SegmentOutput.Factory counting =
        path -> {
          SegmentOutput file = AppendOnlyFileOutput.on(Storage.local()).create(path);
          return new SegmentOutput() {
            @Override
            public void append(ByteBuffer[] buffers) throws IOException {
              file.append(buffers);
            }

            @Override
            public void syncData() throws IOException {
              dataSyncs.incrementAndGet();
              file.syncData();
            }

            @Override
            public void sync() throws IOException {
              syncs.incrementAndGet();
              file.sync();
            }

            @Override
            public void close() throws IOException {
              file.close();
            }
          };
        };
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults(), counting)) {
      int headerForces = dataSyncs.get();
      wal.append("t", cells(), Durability.SYNC_WAL);
      assertEquals(0, syncs.get());
      assertEquals(headerForces + 1, dataSyncs.get());
      wal.append("t", cells(), Durability.FSYNC_WAL);
      assertEquals(1, syncs.get());
      assertEquals(headerForces + 1, dataSyncs.get());
    }
  }

  @Test
  void aSyncAppendForcesTheAsyncEntriesBeforeIt() throws Exception {
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      wal.append("t", cells(), Durability.ASYNC_WAL);
      long sync = wal.append("t", cells(), Durability.FSYNC_WAL);
      assertEquals(sync, wal.durableSequenceId());
      assertEquals(2, WalTestSupport.replayAll(wal, 0).size());
    }
  }

  @Test
  void skippedEntriesAreNotWrittenButTakeIds() throws Exception {
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      assertEquals(1, wal.append("t", cells(), Durability.SKIP_WAL));
      assertEquals(2, wal.append("t", cells(), Durability.SKIP_WAL));
      assertEquals(3, wal.append("t", cells()));
      assertEquals(1, wal.stats().entriesWritten());
      assertEquals(List.of(3L), WalTestSupport.ids(WalTestSupport.replayAll(wal, 0)));
    }
  }

  @Test
  void asyncEntriesAreForcedAtClose() throws Exception {
    long id;
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      id = wal.append("t", cells(), Durability.ASYNC_WAL);
    }
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      assertEquals(List.of(id), WalTestSupport.ids(WalTestSupport.replayAll(wal, 0)));
    }
  }

  @Test
  void rollingAnEmptySegmentDoesNothing() throws Exception {
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      List<Path> before = wal.segments();
      wal.roll();
      assertEquals(before, wal.segments());
      wal.append("t", cells());
      wal.roll();
      assertEquals(2, wal.segments().size());
      assertEquals(1, wal.stats().rolls());
    }
  }

  @Test
  void theSyncThreadIsNamedAndStopsAtClose() throws Exception {
    long before = syncThreads();
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults());
    assertEquals(before + 1, syncThreads());
    wal.close();
    assertEquals(before, syncThreads());
  }

  private static long syncThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals(WalSyncer.THREAD_NAME) && thread.isAlive())
        .count();
  }
}
