package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.Tag;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class MemStoreLABTest {

  private static final int CHUNK = 64 * 1024;

  private final ChunkPool pool = new ChunkPool(CHUNK, 64, 0);

  @AfterEach
  void closePool() {
    pool.close();
  }

  private static KeyValue cell(String row, int valueLength) {
    return KeyValue.create(
        Bytes.toBytes(row),
        Bytes.toBytes("f"),
        Bytes.toBytes("q"),
        7,
        CellType.PUT,
        new byte[valueLength]);
  }

  @Test
  void aCopyIsAnOffHeapViewWithTheGivenSequenceId() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    KeyValue source =
        KeyValue.create(
            Bytes.toBytes("row"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            7,
            CellType.PUT,
            Bytes.toBytes("value"),
            List.of(new Tag((byte) 1, Bytes.toBytes("tag"))));
    Cell copy = lab.copyCellInto(source, 42);
    assertInstanceOf(ChunkCell.class, copy);
    assertTrue(copy.segment().isNative());
    assertEquals(42, copy.sequenceId());
    assertEquals(TestCells.describe(source.withSequenceId(42)), TestCells.describe(copy));
    assertEquals(source.tags(), copy.tags());
    assertEquals(1, lab.chunkCount());
    assertEquals(1, pool.stats().inUseCount());
    lab.close();
    assertTrue(lab.isReleased());
    assertEquals(0, pool.stats().inUseCount());
  }

  @Test
  void theSourceMemoryMayBeReusedAfterTheCopy() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    byte[] buffer = cell("aaa", 4).segment().toArray(KeyValueLayout.BYTE);
    MemorySegment reused = MemorySegment.ofArray(buffer);
    KeyValueCell view = new KeyValueCell(reused, 0, buffer.length, false, 0);
    Cell first = lab.copyCellInto(view, 1);
    String before = TestCells.describe(first);
    reused.fill((byte) 'z');
    assertEquals(before, TestCells.describe(first));
    lab.close();
  }

  @Test
  void aCellWhoseValueLivesElsewhereIsSerializedContiguously() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    KeyValue expected =
        KeyValue.create(
            Bytes.toBytes("split"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            7,
            CellType.PUT,
            Bytes.toBytes("0123456789"));
    KeyValue keyHolder =
        KeyValue.create(
            Bytes.toBytes("split"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            7,
            CellType.PUT,
            Bytes.toBytes("xxxxxxxxxx"));
    Cell split = new SplitCell(keyHolder, MemorySegment.ofArray(Bytes.toBytes("0123456789")));
    Cell copy = lab.copyCellInto(split, 3);
    assertEquals(TestCells.describe(expected.withSequenceId(3)), TestCells.describe(copy));
    lab.close();
  }

  @Test
  void aLatestTimestampBecomesTheWritesTimeInTheCopyOnly() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    for (int valueLength : new int[] {10, 2000}) {
      KeyValue now =
          KeyValue.create(
              Bytes.toBytes("now"),
              Bytes.toBytes("f"),
              Bytes.toBytes("q"),
              KeyValue.LATEST_TIMESTAMP,
              CellType.PUT,
              new byte[valueLength]);
      KeyValue explicit = cell("explicit", valueLength);
      Cell resolved = lab.copyCellInto(now, 5, 1234);
      assertEquals(1234, resolved.timestamp(), valueLength + "-byte value");
      assertEquals(5, resolved.sequenceId());
      assertEquals(KeyValue.LATEST_TIMESTAMP, now.timestamp(), "the source is untouched");
      assertEquals(7, lab.copyCellInto(explicit, 5, 1234).timestamp());
    }
    lab.close();
  }

  @Test
  void cellsAboveTheMaxAllocationGoToTheHeap() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    KeyValue big = cell("big", 2000);
    Cell copy = lab.copyCellInto(big, 9);
    assertInstanceOf(KeyValue.class, copy);
    assertFalse(copy.segment().isNative());
    assertEquals(9, copy.sequenceId());
    assertEquals(TestCells.describe(big.withSequenceId(9)), TestCells.describe(copy));
    assertEquals(0, lab.chunkCount(), "no chunk was taken for it");
    Cell exactlyMax = lab.copyCellInto(cell("max", 1024 - big.length() + 2000), 1);
    assertEquals(1024, exactlyMax.length());
    assertInstanceOf(ChunkCell.class, exactlyMax);
    lab.close();
  }

  @Test
  void aFullChunkIsFollowedByANewOne() {
    MemStoreLAB lab = new MemStoreLAB(pool, CHUNK);
    List<KeyValue> sources = new ArrayList<>();
    List<Cell> copies = new ArrayList<>();
    for (int i = 0; lab.chunkCount() < 3; i++) {
      KeyValue source = cell("row" + i, 1000 + i % 50);
      sources.add(source);
      copies.add(lab.copyCellInto(source, i));
    }
    for (int i = 0; i < sources.size(); i++) {
      assertEquals(
          TestCells.describe(sources.get(i).withSequenceId(i)), TestCells.describe(copies.get(i)));
    }
    assertEquals(3, pool.stats().inUseCount());
    lab.close();
    assertEquals(0, pool.stats().inUseCount());
  }

  @Test
  void chunksOutliveTheCloseWhileScannersAreOpen() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    lab.copyCellInto(cell("a", 1), 1);
    lab.incScannerCount();
    lab.incScannerCount();
    lab.close();
    lab.close();
    assertFalse(lab.isReleased());
    assertEquals(1, pool.stats().inUseCount(), "two scanners still read the chunk");
    lab.decScannerCount();
    assertEquals(1, pool.stats().inUseCount());
    lab.decScannerCount();
    assertTrue(lab.isReleased());
    assertEquals(0, pool.stats().inUseCount());
    assertEquals(0, lab.chunkCount());
    assertThrows(IllegalStateException.class, lab::incScannerCount);
  }

  @Test
  void noCopyAfterClose() {
    MemStoreLAB lab = new MemStoreLAB(pool, 1024);
    lab.incScannerCount();
    lab.close();
    assertThrows(IllegalStateException.class, () -> lab.copyCellInto(cell("a", 1), 1));
    lab.decScannerCount();
  }

  @Test
  void theMaxAllocationMustFitAChunk() {
    assertThrows(IllegalArgumentException.class, () -> new MemStoreLAB(pool, CHUNK + 1));
  }

  @Test
  void concurrentCopiesAreIntact(TestSeed seed) throws Exception {
    MemStoreLAB lab = new MemStoreLAB(pool, 4096);
    List<CompletableFuture<Void>> writers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Random random = new Random(seed.value() + t);
      writers.add(
          CompletableFuture.runAsync(
              () -> {
                TestCells.Generator generator = new TestCells.Generator(random, 50, 3000);
                List<KeyValue> sources = new ArrayList<>();
                List<Cell> copies = new ArrayList<>();
                for (int i = 0; i < 2000; i++) {
                  KeyValue source = generator.cell();
                  sources.add(source);
                  copies.add(lab.copyCellInto(source, i));
                }
                for (int i = 0; i < sources.size(); i++) {
                  assertEquals(
                      TestCells.describe(sources.get(i).withSequenceId(i)),
                      TestCells.describe(copies.get(i)));
                }
              }));
    }
    for (CompletableFuture<Void> writer : writers) {
      writer.get();
    }
    assertTrue(lab.chunkCount() > 1);
    lab.close();
    assertEquals(0, pool.stats().inUseCount());
  }

  /** A cell whose value lives in a segment of its own, like a cell decoded from an HFile block. */
  private record SplitCell(KeyValue whole, MemorySegment value) implements Cell {
    @Override
    public MemorySegment segment() {
      return whole.segment();
    }

    @Override
    public long offset() {
      return whole.offset();
    }

    @Override
    public int length() {
      return whole.length();
    }

    @Override
    public int keyLength() {
      return whole.keyLength();
    }

    @Override
    public int valueLength() {
      return whole.valueLength();
    }

    @Override
    public int rowLength() {
      return whole.rowLength();
    }

    @Override
    public int familyLength() {
      return whole.familyLength();
    }

    @Override
    public int tagsLength() {
      return 0;
    }

    @Override
    public long sequenceId() {
      return 0;
    }

    @Override
    public MemorySegment valueSegment() {
      return value;
    }

    @Override
    public long valueOffset() {
      return 0;
    }
  }
}
