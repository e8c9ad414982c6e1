package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sequence ids start at 1 and only grow, within a run and across reopens. */
class WalSequenceIdTest {

  @TempDir Path directory;

  private final Random random = new Random(42);

  private List<KeyValue> cells() {
    return List.of(WalTestSupport.randomCell(random));
  }

  @Test
  void idsStartAtOneAndGrowAcrossReopens() throws Exception {
    long last = 0;
    for (int run = 0; run < 5; run++) {
      try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
        assertEquals(last, wal.lastSequenceId(), "run " + run + ": continues from the last id");
        assertEquals(last, wal.durableSequenceId(), "run " + run + ": recovered ids are durable");
        for (int i = 0; i < 3 + run; i++) {
          Durability durability = i % 2 == 0 ? Durability.SYNC_WAL : Durability.ASYNC_WAL;
          long id = wal.append("t", cells(), durability);
          assertEquals(last + 1, id, "run " + run + ", append " + i);
          last = id;
        }
      }
    }
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      assertEquals(
          LongStream.rangeClosed(1, last).boxed().toList(),
          WalTestSupport.ids(WalTestSupport.replayAll(wal, 0)));
    }
  }

  @Test
  void reopeningWithoutAppendsKeepsTheIds() throws Exception {
    long written;
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      written = wal.append("t", cells());
    }
    for (int i = 0; i < 3; i++) {
      WriteAheadLog.open(directory, WalConfig.defaults()).close();
    }
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      assertEquals(written + 1, wal.append("t", cells()));
      assertEquals(2, wal.segments().size(), "empty segments of idle runs are not kept");
    }
  }

  @Test
  void skippedIdsBeforeARollAreNotHandedOutAgain() throws Exception {
    long skipped;
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      wal.append("t", cells());
      wal.append("t", cells(), Durability.SKIP_WAL);
      skipped = wal.append("t", cells(), Durability.SKIP_WAL);
      wal.roll();
    }
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      long next = wal.append("t", cells());
      assertTrue(next > skipped, "id " + next + " after skipped id " + skipped);
    }
  }
}
