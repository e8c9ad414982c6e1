package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The memstore's behaviour case by case; {@link MemStoreRandomizedTest} covers it at random. */
class MemStoreTest {

  private static final int CHUNK = 64 * 1024;
  private static final int MAX_ALLOCATION = 1024;
  private static final MemStoreConfig CONFIG =
      new MemStoreConfig(true, CHUNK, MAX_ALLOCATION, 64, 0, 128L * 1024 * 1024);

  private final ChunkPool pool = new ChunkPool(CONFIG);

  @AfterEach
  void closePool() {
    pool.close();
  }

  private static KeyValue put(String row, String qualifier, String value) {
    return KeyValue.create(
        Bytes.toBytes(row),
        Bytes.toBytes("f"),
        Bytes.toBytes(qualifier),
        1,
        CellType.PUT,
        Bytes.toBytes(value));
  }

  private static List<String> scan(MemStore memStore, long readPoint) {
    try (CellCursor cursor = TestCells.merge(memStore.getScanners(readPoint))) {
      return TestCells.drain(cursor);
    }
  }

  private static List<String> describe(Cell... cells) {
    List<String> out = new ArrayList<>();
    for (Cell cell : cells) {
      out.add(TestCells.describe(cell));
    }
    return out;
  }

  @Test
  void cellsComeBackSortedWithTheirSequenceIds() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      memStore.add(put("b", "q", "2"), 5);
      memStore.add(List.of(put("a", "q", "1"), put("c", "q", "3")), 6);
      memStore.add(put("a", "q", "older write"), 4);
      assertEquals(
          describe(
              put("a", "q", "1").withSequenceId(6),
              put("a", "q", "older write").withSequenceId(4),
              put("b", "q", "2").withSequenceId(5),
              put("c", "q", "3").withSequenceId(6)),
          scan(memStore, Long.MAX_VALUE));
    }
  }

  @Test
  void theReadPointHidesLaterWrites() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      memStore.add(put("a", "q", "1"), 1);
      memStore.add(put("b", "q", "2"), 2);
      memStore.add(put("a", "q", "3"), 3);
      assertEquals(describe(put("a", "q", "1").withSequenceId(1)), scan(memStore, 1));
      assertEquals(
          describe(put("a", "q", "1").withSequenceId(1), put("b", "q", "2").withSequenceId(2)),
          scan(memStore, 2));
      assertEquals(3, scan(memStore, 3).size());
      assertEquals(List.of(), scan(memStore, 0));
    }
  }

  @Test
  void addCopiesSoTheCallerMayReuseItsBuffer() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      byte[] buffer = put("row-1", "q", "value-1").segment().toArray(ValueLayout.JAVA_BYTE);
      MemorySegment reused = MemorySegment.ofArray(buffer);
      KeyValueCell view = new KeyValueCell(reused, 0, buffer.length, false, 0);
      memStore.add(view, 1);
      MemorySegment.copy(put("row-2", "q", "value-2").segment(), 0, reused, 0, buffer.length);
      memStore.add(view, 2);
      reused.fill((byte) 0);
      assertEquals(
          describe(
              put("row-1", "q", "value-1").withSequenceId(1),
              put("row-2", "q", "value-2").withSequenceId(2)),
          scan(memStore, 10));
    }
  }

  @Test
  void seekAndReseek() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      for (String row : List.of("a", "c", "e", "g")) {
        memStore.add(put(row, "q", row), 1);
      }
      try (CellCursor cursor = TestCells.merge(memStore.getScanners(1))) {
        assertTrue(cursor.seek(KeyValue.firstOnRow(Bytes.toBytes("d"))));
        assertEquals("e", Bytes.toString(cursor.peek().rowArray()));
        assertTrue(cursor.reseek(KeyValue.firstOnRow(Bytes.toBytes("b"))), "never backwards");
        assertEquals("e", Bytes.toString(cursor.next().rowArray()));
        assertTrue(cursor.reseek(KeyValue.firstOnRow(Bytes.toBytes("f"))));
        assertEquals("g", Bytes.toString(cursor.peek().rowArray()));
        assertTrue(cursor.seek(KeyValue.firstOnRow(Bytes.toBytes("a"))), "seek may go back");
        assertEquals("a", Bytes.toString(cursor.peek().rowArray()));
        assertFalse(cursor.seek(KeyValue.lastOnRow(Bytes.toBytes("g"))));
        assertNull(cursor.peek());
        assertNull(cursor.next());
        assertFalse(cursor.reseek(KeyValue.firstOnRow(Bytes.toBytes("a"))));
      }
    }
  }

  @Test
  void aSeekKeyWithSequenceIdZeroLandsAfterLaterVersionsOfTheSameKey() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      memStore.add(put("a", "q", "v"), 7);
      try (CellCursor cursor = memStore.getScanners(10).get(0)) {
        assertFalse(cursor.seek(put("a", "q", "")), "seq 7 sorts before seq 0");
        assertTrue(cursor.seek(put("a", "q", "").withSequenceId(Long.MAX_VALUE)));
        assertTrue(
            cursor.seek(
                KeyValue.firstOnColumn(
                    Bytes.toBytes("a"), Bytes.toBytes("f"), Bytes.toBytes("q"))));
      }
    }
  }

  @Test
  void aClosedCursorRefusesUse() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      memStore.add(put("a", "q", "1"), 1);
      CellCursor cursor = memStore.getScanners(1).get(0);
      cursor.close();
      cursor.close();
      assertThrows(IllegalStateException.class, cursor::peek);
      assertThrows(IllegalStateException.class, cursor::next);
      assertThrows(IllegalStateException.class, () -> cursor.seek(put("a", "q", "")));
      assertThrows(IllegalStateException.class, () -> cursor.reseek(put("a", "q", "")));
    }
  }

  @Test
  void sizesFollowHBasesAccounting() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      assertEquals(MemStoreSize.EMPTY, memStore.size());
      KeyValue small = put("a", "q", "v");
      KeyValue big =
          KeyValue.create(
              Bytes.toBytes("b"),
              Bytes.toBytes("f"),
              Bytes.toBytes("q"),
              1,
              CellType.PUT,
              new byte[2000]);
      memStore.add(small, 1);
      memStore.add(big, 1);
      long smallHeap = CellFootprint.SKIP_LIST_ENTRY + CellFootprint.CHUNK_CELL;
      long bigHeap =
          CellFootprint.SKIP_LIST_ENTRY
              + CellFootprint.KEY_VALUE
              + CellFootprint.HEAP_SEGMENT
              + ((CellFootprint.ARRAY_HEADER + big.length() + 7) & ~7);
      MemStoreSize expected =
          new MemStoreSize(small.length() + big.length(), smallHeap + bigHeap, small.length(), 2);
      assertEquals(expected, memStore.size());
      assertEquals(expected, memStore.activeSize());
      assertEquals(MemStoreSize.EMPTY, memStore.snapshotSize());

      memStore.add(small, 1);
      MemStoreSize withDuplicate = memStore.size();
      assertEquals(2, withDuplicate.cellsCount(), "same key and sequence id: replaced");
      assertEquals(
          expected.dataSize() + small.length(),
          withDuplicate.dataSize(),
          "but its copy still occupies the chunk");
      assertEquals(expected.offHeapSize() + small.length(), withDuplicate.offHeapSize());
      assertEquals(expected.footprint() + smallHeap + small.length(), withDuplicate.footprint());
    }
  }

  @Test
  void withoutTheMslabEveryCellIsAHeapCopy() {
    MemStoreConfig noMslab = new MemStoreConfig(false, CHUNK, MAX_ALLOCATION, 0, 0, 1 << 20);
    try (MemStore memStore = new MemStore(noMslab, null)) {
      KeyValue cell = put("a", "q", "v");
      memStore.add(cell, 3);
      assertEquals(0, memStore.size().offHeapSize());
      assertEquals(cell.length(), memStore.size().dataSize());
      assertEquals(describe(cell.withSequenceId(3)), scan(memStore, 3));
      assertEquals(0, pool.stats().inUseCount());
    }
  }

  @Test
  void shouldFlushComparesHeapPlusOffHeapWithTheFlushSize() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      assertFalse(memStore.shouldFlush(1000));
      int i = 0;
      while (memStore.size().footprint() <= 1000) {
        assertFalse(memStore.shouldFlush(1000));
        memStore.add(put("row" + i++, "q", "value"), 1);
      }
      assertTrue(memStore.shouldFlush(1000));
      MemStoreSnapshot snapshot = memStore.snapshot();
      assertTrue(memStore.shouldFlush(1000), "the snapshot counts until it is cleared");
      memStore.clearSnapshot(snapshot.id());
      assertFalse(memStore.shouldFlush(1000));
    }
  }

  @Test
  void aSnapshotAndTheNewActiveSegmentAreScannedTogether() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      memStore.add(put("a", "q", "1"), 1);
      memStore.add(put("c", "q", "3"), 2);
      MemStoreSize before = memStore.size();
      MemStoreSnapshot snapshot = memStore.snapshot();
      assertEquals(before, snapshot.size());
      assertEquals(before, memStore.snapshotSize());
      assertEquals(MemStoreSize.EMPTY, memStore.activeSize());
      memStore.add(put("b", "q", "2"), 3);
      memStore.add(put("a", "q", "newer"), 4);

      assertEquals(
          describe(
              put("a", "q", "newer").withSequenceId(4),
              put("a", "q", "1").withSequenceId(1),
              put("b", "q", "2").withSequenceId(3),
              put("c", "q", "3").withSequenceId(2)),
          scan(memStore, 10));
      List<CellCursor> cursors = memStore.getScanners(10);
      assertEquals(2, cursors.size(), "one cursor per segment");
      cursors.forEach(CellCursor::close);
      try (CellCursor flush = snapshot.cursor()) {
        assertEquals(
            describe(put("a", "q", "1").withSequenceId(1), put("c", "q", "3").withSequenceId(2)),
            TestCells.drain(flush));
      }
      memStore.clearSnapshot(snapshot.id());
      assertEquals(
          describe(put("a", "q", "newer").withSequenceId(4), put("b", "q", "2").withSequenceId(3)),
          scan(memStore, 10));
      assertThrows(IllegalStateException.class, snapshot::cursor);
    }
  }

  @Test
  void aSecondSnapshotReturnsTheUnclearedOne() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      memStore.add(put("a", "q", "1"), 1);
      MemStoreSnapshot first = memStore.snapshot();
      memStore.add(put("b", "q", "2"), 2);
      MemStoreSnapshot second = memStore.snapshot();
      assertEquals(first.id(), second.id());
      assertEquals(first.size(), second.size());
      try (CellCursor cursor = second.cursor()) {
        assertEquals(describe(put("a", "q", "1").withSequenceId(1)), TestCells.drain(cursor));
      }
      assertThrows(IllegalStateException.class, () -> memStore.clearSnapshot(first.id() + 1));
      memStore.clearSnapshot(first.id());
      memStore.clearSnapshot(first.id());
      MemStoreSnapshot third = memStore.snapshot();
      assertNotEquals(first.id(), third.id());
      try (CellCursor cursor = third.cursor()) {
        assertEquals(describe(put("b", "q", "2").withSequenceId(2)), TestCells.drain(cursor));
      }
      memStore.clearSnapshot(third.id());
    }
  }

  @Test
  void anEmptySnapshotStillGetsAnId() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      MemStoreSnapshot empty = memStore.snapshot();
      assertTrue(empty.isEmpty());
      assertEquals(0, memStore.getScanners(1).size(), "empty segments get no cursor");
      MemStoreSnapshot again = memStore.snapshot();
      assertNotEquals(empty.id(), again.id(), "an empty snapshot is not kept");
      assertThrows(IllegalStateException.class, () -> memStore.clearSnapshot(empty.id()));
      memStore.clearSnapshot(again.id());
    }
  }

  @Test
  void clearedSnapshotMemoryIsFreedOnlyAfterItsScannersClose() {
    try (MemStore memStore = new MemStore(CONFIG, pool)) {
      for (int i = 0; i < 200; i++) {
        memStore.add(put("row" + i, "q", "x".repeat(900)), i);
      }
      int chunks = pool.stats().inUseCount();
      assertTrue(chunks >= 3, "the cells fill several chunks: " + chunks);
      MemStoreSnapshot snapshot = memStore.snapshot();
      CellCursor reader = TestCells.merge(memStore.getScanners(Long.MAX_VALUE));
      CellCursor flusher = snapshot.cursor();
      Cell first = reader.next();

      memStore.clearSnapshot(snapshot.id());
      assertEquals(chunks, pool.stats().inUseCount(), "two cursors still hold the snapshot");
      flusher.close();
      assertEquals(chunks, pool.stats().inUseCount());
      assertEquals(
          describe(put("row0", "q", "x".repeat(900)).withSequenceId(0)),
          describe(first),
          "a cell read before the clear is still readable");
      assertEquals(199, TestCells.drain(reader).size());
      reader.close();
      assertEquals(0, pool.stats().inUseCount(), "the last cursor out released the chunks");
      assertEquals(
          pool.stats().createdCount(), pool.stats().pooledCount(), "and they are back in the pool");

      int created = pool.stats().createdCount();
      memStore.add(put("again", "q", "v"), 1000);
      assertEquals(1, pool.stats().inUseCount());
      assertEquals(created, pool.stats().createdCount(), "a pooled chunk was reused");
    }
  }

  @Test
  void closingTheMemStoreWaitsForOpenCursors() {
    MemStore memStore = new MemStore(CONFIG, pool);
    memStore.add(put("a", "q", "1"), 1);
    memStore.snapshot();
    memStore.add(put("b", "q", "2"), 2);
    CellCursor cursor = TestCells.merge(memStore.getScanners(2));
    memStore.close();
    memStore.close();
    assertThrows(IllegalStateException.class, () -> memStore.add(put("c", "q", "3"), 3));
    assertThrows(IllegalStateException.class, () -> memStore.getScanners(3));
    assertThrows(IllegalStateException.class, memStore::snapshot);
    assertEquals(2, pool.stats().inUseCount());
    assertEquals(2, TestCells.drain(cursor).size());
    cursor.close();
    assertEquals(0, pool.stats().inUseCount());
  }
}
