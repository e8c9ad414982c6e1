package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import dev.cellar.store.wal.WalTestSupport.Expected;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WriteAheadLog#markFlushed} deletes exactly the closed segments all of whose entries are
 * flushed, table by table, and never the segment being written.
 */
@ExtendWith(TestSeedExtension.class)
class WalCleanupTest {

  @TempDir Path directory;

  private final Random cellRandom = new Random(3);

  private long append(WriteAheadLog wal, String table) throws Exception {
    return wal.append(table, List.of(WalTestSupport.randomCell(cellRandom)), Durability.ASYNC_WAL);
  }

  @Test
  void segmentsGoOnceEveryTableInThemIsFlushed() throws Exception {
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      append(wal, "a");
      append(wal, "a");
      long a3 = append(wal, "a");
      wal.roll();
      long a4 = append(wal, "a");
      long b5 = append(wal, "b");
      wal.roll();
      long b6 = append(wal, "b");
      long c7 = append(wal, "c");
      wal.roll();
      long a8 = append(wal, "a");
      wal.roll();
      long b9 = append(wal, "b");
      List<Path> s = wal.segments();
      assertEquals(5, s.size());

      assertEquals(List.of(), wal.markFlushed("a", a3 - 1));
      assertEquals(List.of(s.get(0)), wal.markFlushed("a", a3));
      assertEquals(List.of(), wal.markFlushed("a", a4), "b is not flushed in segment 2");
      assertEquals(List.of(s.get(1)), wal.markFlushed("b", b5));
      assertEquals(List.of(), wal.markFlushed("b", b9), "c is not flushed in segment 3");
      assertEquals(List.of(), wal.markFlushed("b", b6), "flushed ids never go back");
      assertEquals(List.of(s.get(2)), wal.markFlushed("c", c7));
      assertEquals(List.of(s.get(3)), wal.markFlushed("a", a8));
      assertEquals(List.of(), wal.markFlushed("b", b9), "the segment being written stays");
      assertEquals(List.of(s.get(4)), wal.segments());
      wal.roll();
      assertEquals(List.of(s.get(4)), wal.markFlushed("b", b9), "it can go after a roll");
      assertEquals(1, wal.segments().size());
      assertEquals(wal.segments(), WalTestSupport.segmentFiles(directory));
      assertEquals(List.of(), WalTestSupport.replayAll(wal, 0));
    }
  }

  @Test
  void randomFlushesDeleteExactlyTheCoveredSegments(TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    Map<String, Long> flushed = new HashMap<>();
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      List<Path> live = new ArrayList<>(wal.segments());
      Map<Path, Map<String, Long>> highestByTable = new HashMap<>();
      Map<Path, List<Expected>> entries = new HashMap<>();
      for (int step = 0; step < 300; step++) {
        String where = "step " + step;
        int action = random.nextInt(10);
        String table = "t" + random.nextInt(4);
        if (action < 6) {
          List<KeyValue> cells = List.of(WalTestSupport.randomCell(random));
          long id = wal.append(table, cells, Durability.ASYNC_WAL);
          highestByTable
              .computeIfAbsent(live.getLast(), path -> new HashMap<>())
              .merge(table, id, Math::max);
          entries
              .computeIfAbsent(live.getLast(), path -> new ArrayList<>())
              .add(WalTestSupport.expected(table, id, cells));
        } else if (action < 8) {
          wal.roll();
          live = new ArrayList<>(wal.segments());
        } else if (wal.lastSequenceId() > 0) {
          long id = 1 + random.nextLong(wal.lastSequenceId());
          flushed.merge(table, id, Math::max);
          List<Path> expectedDeleted = new ArrayList<>();
          for (Path segment : live.subList(0, live.size() - 1)) {
            if (covered(highestByTable.getOrDefault(segment, Map.of()), flushed)) {
              expectedDeleted.add(segment);
            }
          }
          assertEquals(
              expectedDeleted,
              wal.markFlushed(table, id),
              where + ": flushed " + flushed + ", segments " + highestByTable);
          live.removeAll(expectedDeleted);
        }
        assertEquals(live, wal.segments(), where);
        assertEquals(live, WalTestSupport.segmentFiles(directory), where);
      }
      wal.append("t0", List.of(WalTestSupport.randomCell(random)), Durability.SKIP_WAL);
      wal.roll();
      List<Expected> expected = new ArrayList<>();
      for (Path segment : live) {
        expected.addAll(entries.getOrDefault(segment, List.of()));
      }
      WalTestSupport.assertSameEntries(
          expected, WalTestSupport.replayAll(wal, 0), "the remaining segments replay");
    }
  }

  private static boolean covered(Map<String, Long> highestByTable, Map<String, Long> flushed) {
    return highestByTable.entrySet().stream()
        .allMatch(table -> flushed.getOrDefault(table.getKey(), -1L) >= table.getValue());
  }

  @Test
  void flushedIdsMustHaveBeenAssigned() throws Exception {
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      long id = append(wal, "a");
      assertThrows(IllegalArgumentException.class, () -> wal.markFlushed("a", id + 1));
      assertThrows(IllegalArgumentException.class, () -> wal.markFlushed("a", -1));
      assertThrows(IllegalArgumentException.class, () -> wal.markFlushed(null, id));
      assertThrows(IllegalArgumentException.class, () -> wal.markFlushed("", id));
    }
  }
}
