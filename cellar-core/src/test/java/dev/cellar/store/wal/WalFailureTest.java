package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a failed write or force the log acknowledges nothing more: the appenders of the failed
 * batch and every later append fail with an {@link IOException} naming the segment file.
 */
class WalFailureTest {

  @TempDir Path directory;

  private final Random random = new Random(5);

  private List<KeyValue> cells() {
    return List.of(WalTestSupport.randomCell(random));
  }

  @Test
  void aFailedForceFailsItsAppenderAndEveryLaterCall() throws Exception {
    FaultyOutputs outputs = new FaultyOutputs();
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults(), outputs);
    long first = wal.append("t", cells());
    Path segment = wal.segments().getLast();
    outputs.failForceAfter(0);
    IOException failed = assertThrows(IOException.class, () -> wal.append("t", cells()));
    assertTrue(
        failed.getMessage().contains(segment.toString())
            && failed.getMessage().contains("injected fsync failure"),
        failed.getMessage());
    for (Durability durability : Durability.values()) {
      IOException later =
          assertThrows(IOException.class, () -> wal.append("t", cells(), durability));
      assertTrue(later.getMessage().contains("failed earlier"), later.getMessage());
    }
    assertThrows(IOException.class, wal::roll);
    assertEquals(first, wal.durableSequenceId());
    IOException closing = assertThrows(IOException.class, wal::close);
    assertTrue(closing.getMessage().contains("after sequence id " + first), closing.getMessage());
    assertSyncThreadStopped();

    try (WriteAheadLog reopened = WriteAheadLog.open(directory, WalConfig.defaults())) {
      List<Long> ids = WalTestSupport.ids(WalTestSupport.replayAll(reopened, 0));
      assertEquals(first, ids.getFirst());
      assertTrue(ids.size() <= 2, "only the entry whose force failed may have reached the disk");
    }
  }

  @Test
  void aFailedWriteFailsTheBatch() throws Exception {
    FaultyOutputs outputs = new FaultyOutputs();
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults(), outputs);
    long first = wal.append("t", cells());
    outputs.failWriteAfter(0);
    IOException failed = assertThrows(IOException.class, () -> wal.append("t", cells()));
    assertTrue(
        failed.getMessage().contains(wal.segments().getLast().toString())
            && failed.getMessage().contains("writing 1 entries"),
        failed.getMessage());
    assertThrows(IOException.class, () -> wal.append("t", cells(), Durability.ASYNC_WAL));
    assertEquals(first, wal.durableSequenceId());
    assertThrows(IOException.class, wal::close);
  }

  @Test
  void aSegmentThatCannotBeCreatedFailsTheRoll() throws Exception {
    FaultyOutputs outputs = new FaultyOutputs();
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults(), outputs);
    long first = wal.append("t", cells());
    outputs.failCreateAfter(0);
    IOException failed = assertThrows(IOException.class, wal::roll);
    assertTrue(
        failed.getMessage().contains(WalLayout.fileName(first + 1))
            && failed.getMessage().contains("injected create failure"),
        failed.getMessage());
    assertThrows(IOException.class, () -> wal.append("t", cells()));
    assertThrows(IOException.class, wal::close);
    try (WriteAheadLog reopened = WriteAheadLog.open(directory, WalConfig.defaults())) {
      assertEquals(List.of(first), WalTestSupport.ids(WalTestSupport.replayAll(reopened, 0)));
    }
  }

  @Test
  void concurrentAppendersAreNeverAcknowledgedAfterAFailure() throws Exception {
    FaultyOutputs outputs = new FaultyOutputs();
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults(), outputs);
    outputs.failForceAfter(40);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<List<Long>>> results = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      String table = "writer-" + t;
      results.add(
          pool.submit(
              () -> {
                List<Long> acknowledged = new ArrayList<>();
                List<KeyValue> cells =
                    List.of(WalTestSupport.randomCell(new Random(table.hashCode())));
                while (true) {
                  try {
                    acknowledged.add(wal.append(table, cells));
                  } catch (IOException e) {
                    for (int retry = 0; retry < 3; retry++) {
                      assertThrows(IOException.class, () -> wal.append(table, cells));
                    }
                    return acknowledged;
                  }
                }
              }));
    }
    List<Long> acknowledged = new ArrayList<>();
    for (Future<List<Long>> result : results) {
      acknowledged.addAll(result.get());
    }
    pool.shutdown();
    long durable = wal.durableSequenceId();
    assertFalse(acknowledged.isEmpty());
    assertTrue(
        acknowledged.stream().allMatch(id -> id <= durable),
        "acknowledged " + acknowledged + " but durable only up to " + durable);
    assertThrows(IOException.class, wal::close);
    try (WriteAheadLog reopened = WriteAheadLog.open(directory, WalConfig.defaults())) {
      List<Long> replayed = WalTestSupport.ids(WalTestSupport.replayAll(reopened, 0));
      assertTrue(replayed.containsAll(acknowledged), "every acknowledged entry replays");
    }
  }

  private static void assertSyncThreadStopped() {
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .noneMatch(
                thread -> thread.getName().equals(WalSyncer.THREAD_NAME) && thread.isAlive()),
        "no sync thread is left running");
  }
}
