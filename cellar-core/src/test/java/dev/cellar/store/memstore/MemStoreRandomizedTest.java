package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random adds, snapshots, clears, scans, seeks and reseeks at random read points, checked against
 * two {@link TreeMap}s ordered by {@link CellComparator#INSTANCE} (the active segment's cells and
 * the snapshot's). Small chunks and a small max allocation make cells spread over many chunks and
 * some go to the heap.
 */
@ExtendWith(TestSeedExtension.class)
class MemStoreRandomizedTest {

  private static final int OPERATIONS = 5000;

  @ParameterizedTest(name = "mslab={0}")
  @ValueSource(booleans = {true, false})
  void randomOperationsMatchATreeMapOracle(boolean mslab, TestSeed seed) {
    Random random = new Random(seed.value());
    TestCells.Generator generator = new TestCells.Generator(random, 40, 700);
    MemStoreConfig config = new MemStoreConfig(mslab, 4096, 512, 256, 0, 1 << 20);
    TreeMap<Cell, Cell> active = new TreeMap<>(CellComparator.INSTANCE);
    TreeMap<Cell, Cell> snapshot = new TreeMap<>(CellComparator.INSTANCE);
    long snapshotId = -1;
    long nextSequenceId = 1;
    try (ChunkPool pool = new ChunkPool(config);
        MemStore memStore = new MemStore(config, pool)) {
      for (int op = 0; op < OPERATIONS; op++) {
        String where = "operation " + op;
        int dice = random.nextInt(100);
        if (dice < 70) {
          long sequenceId = nextSequenceId;
          nextSequenceId += 1 + random.nextInt(3);
          List<KeyValue> batch = new ArrayList<>();
          for (int i = random.nextInt(4); i >= 0; i--) {
            batch.add(generator.cell());
          }
          if (random.nextInt(20) == 0) {
            batch.add(batch.get(0));
          }
          if (batch.size() == 1 && random.nextBoolean()) {
            memStore.add(batch.get(0), sequenceId);
          } else {
            memStore.add(batch, sequenceId);
          }
          for (KeyValue cell : batch) {
            KeyValue expected = cell.withSequenceId(sequenceId);
            active.put(expected, expected);
          }
        } else if (dice < 73 && (snapshot.isEmpty() || random.nextInt(4) == 0)) {
          MemStoreSnapshot taken = memStore.snapshot();
          if (!snapshot.isEmpty()) {
            assertEquals(snapshotId, taken.id(), where);
          } else {
            snapshot.putAll(active);
            active.clear();
          }
          snapshotId = taken.id();
          assertEquals(snapshot.size(), taken.size().cellsCount(), where);
          try (CellCursor cursor = taken.cursor()) {
            assertEquals(
                describe(snapshot.values(), Long.MAX_VALUE), TestCells.drain(cursor), where);
          }
        } else if (dice < 75) {
          memStore.clearSnapshot(snapshotId);
          snapshot.clear();
        } else if (dice < 90) {
          long readPoint = random.nextLong(nextSequenceId + 1);
          try (CellCursor cursor = TestCells.merge(memStore.getScanners(readPoint))) {
            assertEquals(expected(active, snapshot, readPoint), TestCells.drain(cursor), where);
          }
        } else {
          checkSeeks(
              memStore,
              generator,
              random,
              expectedCells(active, snapshot, random.nextLong(nextSequenceId + 1)),
              where);
        }
        assertEquals(active.size() + snapshot.size(), memStore.size().cellsCount(), where);
        assertEquals(active.size(), memStore.activeSize().cellsCount(), where);
      }
    }
  }

  private static void checkSeeks(
      MemStore memStore,
      TestCells.Generator generator,
      Random random,
      ReadView expected,
      String where) {
    List<Cell> cells = expected.cells();
    try (CellCursor cursor = TestCells.merge(memStore.getScanners(expected.readPoint()))) {
      Cell key = generator.seekKey();
      int position = firstAtLeast(cells, key, 0);
      assertEquals(position < cells.size(), cursor.seek(key), where + ", seek " + key);
      assertEquals(
          describe(cells, position), TestCells.describe(cursor.peek()), where + ", seek " + key);
      for (int step = 0; step < 12; step++) {
        if (random.nextInt(3) == 0) {
          assertEquals(describe(cells, position), TestCells.describe(cursor.next()), where);
          position = Math.min(position + 1, cells.size());
        } else {
          key = generator.seekKey();
          position = firstAtLeast(cells, key, position);
          assertEquals(position < cells.size(), cursor.reseek(key), where + ", reseek " + key);
          assertEquals(
              describe(cells, position),
              TestCells.describe(cursor.peek()),
              where + ", reseek " + key);
        }
      }
    }
  }

  /** The cells visible at a read point, in order. */
  private record ReadView(long readPoint, List<Cell> cells) {}

  private static ReadView expectedCells(
      TreeMap<Cell, Cell> active, TreeMap<Cell, Cell> snapshot, long readPoint) {
    List<Cell> cells = new ArrayList<>();
    for (Cell cell : active.values()) {
      if (cell.sequenceId() <= readPoint) {
        cells.add(cell);
      }
    }
    for (Cell cell : snapshot.values()) {
      if (cell.sequenceId() <= readPoint) {
        cells.add(cell);
      }
    }
    cells.sort(CellComparator.INSTANCE);
    return new ReadView(readPoint, cells);
  }

  private static List<String> expected(
      TreeMap<Cell, Cell> active, TreeMap<Cell, Cell> snapshot, long readPoint) {
    return describe(expectedCells(active, snapshot, readPoint).cells(), readPoint);
  }

  private static List<String> describe(Iterable<Cell> cells, long readPoint) {
    List<String> out = new ArrayList<>();
    for (Cell cell : cells) {
      if (cell.sequenceId() <= readPoint) {
        out.add(TestCells.describe(cell));
      }
    }
    return out;
  }

  private static String describe(List<Cell> cells, int position) {
    return TestCells.describe(position < cells.size() ? cells.get(position) : null);
  }

  private static int firstAtLeast(List<Cell> cells, Cell key, int from) {
    int position = from;
    while (position < cells.size()
        && CellComparator.INSTANCE.compare(cells.get(position), key) < 0) {
      position++;
    }
    return position;
  }
}
