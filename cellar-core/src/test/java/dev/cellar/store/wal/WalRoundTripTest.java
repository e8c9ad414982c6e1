package dev.cellar.store.wal;

import static dev.cellar.store.wal.WalTestSupport.assertSameEntries;
import static dev.cellar.store.wal.WalTestSupport.expected;
import static dev.cellar.store.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import dev.cellar.store.wal.WalTestSupport.Expected;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random entries of every durability, across automatic and explicit rolls and several reopens,
 * replay exactly as an in-memory list says they should.
 */
@ExtendWith(TestSeedExtension.class)
class WalRoundTripTest {

  private static final Durability[] DURABILITIES = {
    Durability.SYNC_WAL,
    Durability.SYNC_WAL,
    Durability.ASYNC_WAL,
    Durability.ASYNC_WAL,
    Durability.FSYNC_WAL,
    Durability.SKIP_WAL
  };

  @TempDir Path directory;

  @Test
  void randomEntriesReplayInOrderAcrossRollsAndReopens(TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    WalConfig config = WalConfig.defaults().withRollSize(16 * 1024);
    List<Expected> oracle = new ArrayList<>();
    long lastId = 0;
    int segmentsSeen = 0;
    for (int run = 0; run < 4; run++) {
      try (WriteAheadLog wal = WriteAheadLog.open(directory, config)) {
        assertSameEntries(oracle, replayAll(wal, 0), "run " + run + " on open");
        for (int i = 0; i < 120; i++) {
          String table = "table-" + random.nextInt(3);
          List<KeyValue> cells = WalTestSupport.randomCells(random);
          Durability durability = DURABILITIES[random.nextInt(DURABILITIES.length)];
          long id = wal.append(table, cells, durability);
          assertTrue(id > lastId, "id " + id + " after " + lastId);
          lastId = id;
          if (durability != Durability.SKIP_WAL) {
            oracle.add(expected(table, id, cells));
          }
          if (random.nextInt(50) == 0) {
            wal.roll();
          }
        }
        wal.append("table-0", WalTestSupport.randomCells(random), Durability.SKIP_WAL);
        List<KeyValue> forcing = List.of(WalTestSupport.randomCell(random));
        long syncId = wal.append("table-1", forcing);
        oracle.add(expected("table-1", syncId, forcing));
        lastId = syncId;
        assertSameEntries(oracle, replayAll(wal, 0), "run " + run + " while open");
        segmentsSeen = Math.max(segmentsSeen, wal.segments().size());
      }
    }
    assertTrue(segmentsSeen > 2, "expected automatic rolls, saw " + segmentsSeen + " segments");
    try (WriteAheadLog wal = WriteAheadLog.open(directory, config)) {
      assertSameEntries(oracle, replayAll(wal, 0), "after the last reopen");
      for (int i = 0; i < 10; i++) {
        long from = oracle.get(random.nextInt(oracle.size())).sequenceId() - random.nextInt(2);
        List<Expected> tail = oracle.stream().filter(entry -> entry.sequenceId() > from).toList();
        assertSameEntries(tail, replayAll(wal, from), "replay from " + from);
      }
      assertEquals(List.of(), replayAll(wal, lastId), "replay past the end");
    }
  }
}
