package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.BloomType;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writes random cells with every encoding, compression and a range of block sizes, then reads them
 * back through full scans and random seeks, checked against a {@link TreeMap} oracle.
 */
@ExtendWith(TestSeedExtension.class)
class HFileRoundTripTest {

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    DataBlockEncoding[] encodings = {
      DataBlockEncoding.NONE,
      DataBlockEncoding.PREFIX,
      DataBlockEncoding.DIFF,
      DataBlockEncoding.FAST_DIFF,
      DataBlockEncoding.ROW_INDEX_V1
    };
    Compression[] compressions = {
      Compression.NONE, Compression.GZ, Compression.SNAPPY, Compression.LZ4, Compression.ZSTD
    };
    int[] blockSizes = {256, 4096, 65536};
    int i = 0;
    for (DataBlockEncoding encoding : encodings) {
      for (Compression compression : compressions) {
        for (int blockSize : blockSizes) {
          boolean tags = (i % 2) == 0;
          boolean mvcc = (i % 3) != 0;
          out.add(Arguments.of(encoding, compression, blockSize, tags, mvcc));
          i++;
        }
      }
    }
    return out.stream();
  }

  /** A TreeMap oracle ordered by the cell key, then by sequence id descending. */
  private static TreeMap<Cell, Cell> randomCells(
      Random random, int count, boolean tags, boolean mvcc) {
    TreeMap<Cell, Cell> cells = new TreeMap<>(CellComparator.INSTANCE);
    CellType[] types = {
      CellType.PUT,
      CellType.PUT,
      CellType.PUT,
      CellType.DELETE,
      CellType.DELETE_COLUMN,
      CellType.DELETE_FAMILY,
      CellType.DELETE_FAMILY_VERSION
    };
    while (cells.size() < count) {
      byte[] row = String.format("row-%05d", random.nextInt(count / 2 + 1)).getBytes();
      byte[] qualifier = String.format("q%d", random.nextInt(4)).getBytes();
      byte[] value = new byte[random.nextInt(8) == 0 ? 0 : random.nextInt(300)];
      if (random.nextInt(200) == 0) {
        value = new byte[70_000 + random.nextInt(10_000)];
      }
      random.nextBytes(value);
      List<Tag> cellTags =
          tags && random.nextBoolean()
              ? List.of(
                  new Tag((byte) (1 + random.nextInt(3)), ("t" + random.nextInt(5)).getBytes()))
              : List.of();
      KeyValue cell =
          KeyValue.create(
                  row,
                  new byte[] {'f'},
                  qualifier,
                  random.nextInt(5) * 1000L,
                  types[random.nextInt(types.length)],
                  value,
                  cellTags)
              .withSequenceId(mvcc ? random.nextInt(1000) : 0);
      cells.put(cell, cell);
    }
    return cells;
  }

  @ParameterizedTest(name = "{0} {1} block {2} tags={3} mvcc={4}")
  @MethodSource("matrix")
  void cellsComeBackThroughScansAndSeeks(
      DataBlockEncoding encoding,
      Compression compression,
      int blockSize,
      boolean tags,
      boolean mvcc,
      TestSeed seed)
      throws IOException {
    String where = encoding + " " + compression + " block " + blockSize;
    Random random = new Random(seed.value());
    TreeMap<Cell, Cell> oracle = randomCells(random, 300 + random.nextInt(700), tags, mvcc);
    Path path = dir.resolve("file.hfile");
    HFileContext context =
        HFileContext.builder()
            .blockSize(blockSize)
            .encoding(encoding)
            .compression(compression)
            .includesTags(tags)
            .includesMvcc(mvcc)
            .bloomType(BloomType.ROW)
            .build();
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (Cell cell : oracle.keySet()) {
        writer.append(cell);
      }
    }
    List<Cell> expected = new ArrayList<>(oracle.keySet());
    try (HFileReader reader = HFileReader.open(path, allocator);
        HFileScanner scanner = reader.scanner(true)) {
      assertEquals(expected.size(), reader.entryCount(), where);
      assertTrue(scanner.seekTo(), where);
      for (int i = 0; i < expected.size(); i++) {
        assertSameCell(expected.get(i), scanner.current(), mvcc, where + " cell " + i);
        assertEquals(i < expected.size() - 1, scanner.next(), where + " next after " + i);
      }
      assertArrayEquals(IndexKeys.keyOf(expected.getLast()), reader.lastKey(), where);
      for (int probe = 0; probe < 300; probe++) {
        Cell target =
            probe % 2 == 0
                ? expected.get(random.nextInt(expected.size()))
                : KeyValue.firstOnRow(String.format("row-%05d", random.nextInt(600)).getBytes());
        checkSeek(scanner, oracle, target, mvcc, where + " seek " + target);
        checkSeekBefore(scanner, oracle, target, mvcc, where + " seekBefore " + target);
        assertTrue(
            reader.mightContain(rowOf(target), null) || !rowPresent(oracle, target),
            where + " bloom false negative for " + target);
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount(), where);
  }

  private static byte[] rowOf(Cell cell) {
    return cell.rowArray();
  }

  private static boolean rowPresent(TreeMap<Cell, Cell> oracle, Cell target) {
    Cell ceiling = oracle.ceilingKey(KeyValue.firstOnRow(target.rowArray()));
    return ceiling != null && CellComparator.compareRows(ceiling, target) == 0;
  }

  private static void checkSeek(
      HFileScanner scanner, TreeMap<Cell, Cell> oracle, Cell key, boolean mvcc, String where)
      throws IOException {
    int result = scanner.seekTo(key);
    Map.Entry<Cell, Cell> floor = floorIgnoringSequenceId(oracle, key);
    if (floor == null) {
      if (result == HFileScanner.AFTER_KEY) {
        assertSameCell(oracle.firstKey(), scanner.current(), mvcc, where);
      } else {
        assertEquals(HFileScanner.BEFORE_FILE, result, where);
      }
      return;
    }
    if (result == HFileScanner.AFTER_KEY) {
      Cell after = oracle.higherKey(floor.getKey());
      assertSameCell(after, scanner.current(), mvcc, where);
      return;
    }
    assertSameCell(floor.getKey(), scanner.current(), mvcc, where);
    boolean exact = CellComparator.compareKeyIgnoringSequenceId(floor.getKey(), key) == 0;
    assertEquals(exact ? HFileScanner.EXACT : HFileScanner.BEFORE_KEY, result, where);
  }

  /** The last cell whose key, ignoring sequence ids, is not after {@code key}. */
  private static Map.Entry<Cell, Cell> floorIgnoringSequenceId(
      TreeMap<Cell, Cell> oracle, Cell key) {
    Map.Entry<Cell, Cell> floor = null;
    for (Map.Entry<Cell, Cell> entry : oracle.entrySet()) {
      if (CellComparator.compareKeyIgnoringSequenceId(entry.getKey(), key) > 0) {
        break;
      }
      floor = entry;
    }
    return floor;
  }

  private static void checkSeekBefore(
      HFileScanner scanner, TreeMap<Cell, Cell> oracle, Cell key, boolean mvcc, String where)
      throws IOException {
    Cell before = null;
    for (Cell cell : oracle.keySet()) {
      if (CellComparator.compareKeyIgnoringSequenceId(cell, key) >= 0) {
        break;
      }
      before = cell;
    }
    boolean found = scanner.seekBefore(key);
    if (before == null) {
      assertFalse(found, where);
    } else {
      assertTrue(found, where);
      assertSameCell(before, scanner.current(), mvcc, where);
    }
  }

  private static void assertSameCell(Cell expected, Cell actual, boolean mvcc, String where) {
    assertEquals(
        0,
        CellComparator.compareKeyIgnoringSequenceId(expected, actual),
        where + ": expected " + expected + " found " + actual);
    assertArrayEquals(expected.valueArray(), actual.valueArray(), where + " value");
    assertArrayEquals(expected.tagsArray(), actual.tagsArray(), where + " tags");
    assertEquals(mvcc ? expected.sequenceId() : 0, actual.sequenceId(), where + " sequence id");
  }
}
