package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.config.Settings;
import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.RowCellSink;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link HFileScanner#collectLatestPuts} against an oracle walking the file's cells: for every row
 * of a file of small blocks (rows spanning blocks), from the row's first cell, the cells taken are
 * the newest put of each column whose timestamp lies in the range, the result says whether the row
 * needed the general matcher (a delete marker anywhere in it, or a column's newest cell outside the
 * range), and after a collected row the scanner stands on the next row's first cell. Files of every
 * encoding, with or without tags and sequence ids, read uncached and from an L1.
 */
@ExtendWith(TestSeedExtension.class)
class HFileScannerRowCollectionTest {

  private static final byte[] FAMILY = {'f'};

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private LruBlockCache cache;

  @AfterEach
  void shutDown() {
    if (cache != null) {
      cache.shutdown();
    }
    assertEquals(0, allocator.stats().usedBufferCount(), "every pooled buffer came back");
    allocator.close();
  }

  @ParameterizedTest(name = "{0} cached {1}")
  @CsvSource({
    "NONE, false",
    "NONE, true",
    "ROW_INDEX_V1, false",
    "ROW_INDEX_V1, true",
    "PREFIX, false",
    "PREFIX, true",
    "DIFF, false",
    "DIFF, true",
    "FAST_DIFF, false",
    "FAST_DIFF, true"
  })
  void rowsCollectAsTheOracleSays(DataBlockEncoding encoding, boolean cached, TestSeed seed)
      throws Exception {
    Random random = new Random(seed.value());
    boolean tags = random.nextBoolean();
    HFileContext context =
        HFileContext.builder()
            .encoding(encoding)
            .blockSize(new int[] {256, 512, 2048}[random.nextInt(3)])
            .indexBlockMaxSize(256)
            .includesTags(tags)
            .includesMvcc(random.nextBoolean())
            .build();
    List<KeyValue> cells = cells(random, tags);
    Path path = dir.resolve("rows.hfile");
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (KeyValue cell : cells) {
        writer.append(cell);
      }
    }
    try (HFileReader reader = open(path, cached);
        HFileScanner scanner = reader.scanner(cached)) {
      checkEveryRow(random, cells, scanner, context.includesMvcc());
    }
  }

  /**
   * A data block corrupted on disk: the row collection that reaches it fails with the file's
   * corruption error (its checksum), never a wrong row, and the scanner gives back every pooled
   * buffer when it closes (checked after the test).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"NONE", "FAST_DIFF"})
  void aCorruptBlockFailsTheCollectionAndLeaksNothing(DataBlockEncoding encoding, TestSeed seed)
      throws Exception {
    Random random = new Random(seed.value());
    HFileContext context =
        HFileContext.builder()
            .encoding(encoding)
            .blockSize(512)
            .indexBlockMaxSize(256)
            .includesMvcc(true)
            .build();
    List<KeyValue> cells = cells(random, false);
    Path path = dir.resolve("corrupt.hfile");
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (KeyValue cell : cells) {
        writer.append(cell);
      }
    }
    byte[] bytes = java.nio.file.Files.readAllBytes(path);
    // inside the first data block, which the first row's collection reads: a byte further on may
    // lie in a block that only the older versions of a row started before it fill, which a
    // collection that has every column's newest cell never needs to read
    int at = 100;
    bytes[at] ^= 0x5A;
    java.nio.file.Files.write(path, bytes);
    CorruptHFileException failure = null;
    try (HFileReader reader = open(path, true);
        HFileScanner scanner = reader.scanner(true)) {
      TakenCells sink = new TakenCells();
      try {
        for (int first = 0; first < cells.size(); first++) {
          if (first > 0 && CellComparator.sameRow(cells.get(first), cells.get(first - 1))) {
            continue;
          }
          KeyValue row = cells.get(first);
          positionOn(scanner, row);
          sink.taken.clear();
          scanner.collectLatestPuts(
              row.segment(),
              row.rowOffset(),
              row.rowLength(),
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              sink);
        }
      } catch (CorruptHFileException e) {
        failure = e;
      }
    }
    assertTrue(failure != null, "the corrupt byte at " + at + " went unseen");
  }

  private void checkEveryRow(
      Random random, List<KeyValue> cells, HFileScanner scanner, boolean sequenceIds)
      throws IOException {
    int collected = 0;
    int gaveUp = 0;
    for (int first = 0; first < cells.size(); ) {
      int end = first;
      while (end < cells.size() && CellComparator.sameRow(cells.get(end), cells.get(first))) {
        end++;
      }
      long min = random.nextInt(4) == 0 ? 1000 + random.nextInt(20) : Long.MIN_VALUE;
      long max = random.nextInt(4) == 0 ? 1030 + random.nextInt(20) : Long.MAX_VALUE;
      List<KeyValue> expected = new ArrayList<>();
      boolean expectCollected = oracle(cells.subList(first, end), min, max, expected);
      KeyValue row = cells.get(first);
      positionOn(scanner, row);
      assertEquals(
          0,
          CellComparator.IGNORING_SEQUENCE_ID.compare(row, scanner.current()),
          "positioned on the row's first cell");
      TakenCells sink = new TakenCells();
      int result =
          scanner.collectLatestPuts(
              row.segment(), row.rowOffset(), row.rowLength(), min, max, sink);
      String what = "row " + new String(row.rowArray()) + " in [" + min + ", " + max + ")";
      if (expectCollected) {
        collected++;
        assertEquals(BlockSeeker.ROW_ENDED, result, what);
        assertEquals(expected.size(), sink.taken.size(), what);
        for (int i = 0; i < expected.size(); i++) {
          KeyValue want = expected.get(i);
          Cell got = sink.taken.get(i);
          assertEquals(
              0, CellComparator.IGNORING_SEQUENCE_ID.compare(want, got), what + ", cell " + i);
          assertEquals(sequenceIds ? want.sequenceId() : 0, got.sequenceId(), what + ", cell " + i);
          assertTrue(Arrays.equals(want.valueArray(), got.valueArray()), what + ", cell " + i);
        }
        if (end < cells.size()) {
          assertTrue(scanner.isValid(), what);
          assertEquals(
              0,
              CellComparator.IGNORING_SEQUENCE_ID.compare(cells.get(end), scanner.current()),
              what + ": the scanner stands on the next row's first cell");
        } else {
          assertFalse(scanner.isValid(), what + ": the file ended");
        }
      } else {
        gaveUp++;
        assertEquals(BlockSeeker.GAVE_UP, result, what);
        assertTrue(CellComparator.sameRow(row, scanner.current()), what + ": still in the row");
      }
      first = end;
    }
    assertTrue(
        collected > 0 && gaveUp > 0,
        collected + " rows collected, " + gaveUp + " given up: the file should have both");
  }

  /**
   * What a collection of {@code row}'s cells gives: false where it gives up; else true, with the
   * newest put of each column added to {@code taken}.
   */
  private static boolean oracle(List<KeyValue> row, long min, long max, List<KeyValue> taken) {
    KeyValue last = null;
    for (KeyValue cell : row) {
      if (cell.typeByte() != CellType.PUT.code()) {
        return false;
      }
      if (last == null || !Arrays.equals(last.qualifierArray(), cell.qualifierArray())) {
        if (cell.timestamp() < min || cell.timestamp() >= max) {
          return false;
        }
        taken.add(cell);
        last = cell;
      }
    }
    return true;
  }

  /** Positions the scanner on the first cell of {@code row}'s row. */
  private static void positionOn(HFileScanner scanner, KeyValue row) throws IOException {
    KeyValue firstOnRow = KeyValue.firstOnRow(row.rowArray());
    switch (scanner.seekTo(firstOnRow)) {
      case HFileScanner.BEFORE_FILE -> scanner.seekTo();
      case HFileScanner.BEFORE_KEY -> scanner.next();
      default -> {}
    }
  }

  private HFileReader open(Path path, boolean cached) throws IOException {
    if (!cached) {
      return HFileReader.open(path, allocator);
    }
    cache =
        new LruBlockCache(
            LruBlockCacheConfig.from(
                Settings.of(Map.of(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, "64m"))),
            Runnable::run);
    return HFileReader.open(
        path, allocator, direct -> new CachingBlockLoader(cache, direct, path.toString(), false));
  }

  /**
   * Rows of one to twelve columns of one to three versions, values of 0 to 120 bytes; one row in
   * eight holds a delete marker. Timestamps 1000 to 1049, sequence ids random.
   */
  private static List<KeyValue> cells(Random random, boolean withTags) {
    TreeSet<KeyValue> sorted = new TreeSet<>(CellComparator.IGNORING_SEQUENCE_ID);
    for (int r = 0; r < 400; r++) {
      byte[] row = ("row" + (10_000 + random.nextInt(90_000))).getBytes();
      boolean withDelete = random.nextInt(8) == 0;
      int columns = 1 + random.nextInt(12);
      for (int c = 0; c < columns; c++) {
        byte[] qualifier = ("q" + random.nextInt(20)).getBytes();
        int versions = 1 + random.nextInt(3);
        for (int v = 0; v < versions; v++) {
          byte[] value = new byte[random.nextInt(120)];
          random.nextBytes(value);
          CellType type =
              withDelete && random.nextInt(3) == 0 ? CellType.DELETE_COLUMN : CellType.PUT;
          List<Tag> tags =
              withTags && random.nextBoolean()
                  ? List.of(new Tag((byte) 1, new byte[] {(byte) v}))
                  : List.of();
          sorted.add(
              KeyValue.create(row, FAMILY, qualifier, 1000 + random.nextInt(50), type, value, tags)
                  .withSequenceId(random.nextInt(1 << 20)));
        }
      }
    }
    return new ArrayList<>(sorted);
  }

  /** Keeps copies of the cells taken, as a row holder keeps views. */
  private static final class TakenCells implements RowCellSink {

    final List<KeyValue> taken = new ArrayList<>();

    @Override
    public void take(Cell cell) {
      taken.add(KeyValue.copyOf(cell));
    }

    @Override
    public Cell lastTaken() {
      return taken.isEmpty() ? null : taken.get(taken.size() - 1);
    }
  }
}
