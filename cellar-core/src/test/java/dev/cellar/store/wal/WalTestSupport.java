package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** Random cells, an entry oracle and file helpers shared by the write-ahead log tests. */
final class WalTestSupport {

  private static final CellType[] TYPES = {
    CellType.PUT,
    CellType.DELETE,
    CellType.DELETE_COLUMN,
    CellType.DELETE_FAMILY,
    CellType.DELETE_FAMILY_VERSION
  };

  /** An entry as appended: the oracle's record, with heap copies of the cells. */
  record Expected(String table, long sequenceId, List<KeyValue> cells) {}

  private WalTestSupport() {}

  /** Returns a random cell: short row, family, qualifier, a value of up to 300 bytes, some tags. */
  static KeyValue randomCell(Random random) {
    byte[] value = bytes(random, random.nextInt(20) == 0 ? 2000 : random.nextInt(300));
    List<Tag> tags =
        random.nextInt(4) == 0
            ? List.of(new Tag((byte) (1 + random.nextInt(100)), bytes(random, random.nextInt(20))))
            : List.of();
    return KeyValue.create(
        bytes(random, 1 + random.nextInt(20)),
        bytes(random, 1 + random.nextInt(5)),
        bytes(random, random.nextInt(10)),
        random.nextLong(),
        TYPES[random.nextInt(TYPES.length)],
        value,
        tags);
  }

  /** Returns one to five random cells. */
  static List<KeyValue> randomCells(Random random) {
    List<KeyValue> cells = new ArrayList<>();
    int count = 1 + random.nextInt(5);
    for (int i = 0; i < count; i++) {
      cells.add(randomCell(random));
    }
    return cells;
  }

  static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Returns the oracle record of an appended entry. */
  static Expected expected(String table, long sequenceId, List<KeyValue> cells) {
    return new Expected(
        table, sequenceId, cells.stream().map(cell -> cell.withSequenceId(sequenceId)).toList());
  }

  /** Returns heap copies of every entry the log replays above {@code fromExclusive}. */
  static List<Expected> replayAll(WriteAheadLog wal, long fromExclusive) throws IOException {
    List<Expected> entries = new ArrayList<>();
    wal.replay(
        fromExclusive,
        entry ->
            entries.add(
                new Expected(
                    entry.table(),
                    entry.sequenceId(),
                    entry.cells().stream().map(KeyValue::copyOf).toList())));
    return entries;
  }

  /** Asserts that two entry lists hold the same tables, ids and cell bytes, in the same order. */
  static void assertSameEntries(List<Expected> expected, List<Expected> actual, String context) {
    assertEquals(ids(expected), ids(actual), context + ": sequence ids");
    for (int i = 0; i < expected.size(); i++) {
      assertSameEntry(expected.get(i), actual.get(i), context);
    }
  }

  static void assertSameEntry(Expected expected, Expected actual, String context) {
    String where = context + ": entry " + expected.sequenceId();
    assertEquals(expected.table(), actual.table(), where + " table");
    assertEquals(expected.cells().size(), actual.cells().size(), where + " cell count");
    for (int c = 0; c < expected.cells().size(); c++) {
      Cell want = expected.cells().get(c);
      Cell got = actual.cells().get(c);
      assertArrayEquals(serialized(want), serialized(got), where + " cell " + c);
      assertEquals(expected.sequenceId(), got.sequenceId(), where + " cell " + c + " sequence id");
    }
  }

  static List<Long> ids(List<Expected> entries) {
    return entries.stream().map(Expected::sequenceId).toList();
  }

  /** Returns the KeyValue bytes of a cell. */
  static byte[] serialized(Cell cell) {
    return KeyValue.copyOf(cell).segment().toArray(ValueLayout.JAVA_BYTE);
  }

  /** Returns the segment files in {@code directory}, oldest first. */
  static List<Path> segmentFiles(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(path -> WalLayout.parseFileName(path.getFileName().toString()) >= 0)
          .sorted()
          .toList();
    }
  }

  /** Returns the file offset of every entry of a segment, then the offset where the last ends. */
  static List<Long> entryOffsets(Path segment) throws IOException {
    long firstId = WalLayout.parseFileName(segment.getFileName().toString());
    List<Long> offsets = new ArrayList<>();
    try (SegmentReader reader =
        SegmentReader.open(dev.cellar.io.Storage.local(), segment, firstId)) {
      offsets.add(reader.position());
      while (reader.next() != null) {
        offsets.add(reader.position());
      }
    }
    return offsets;
  }

  /** Copies every file of {@code from} into the new directory {@code to}. */
  static void copyDirectory(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    }
  }

  /** Flips bit {@code bit} of the byte at {@code offset} of {@code file}. */
  static void flipBit(Path file, long offset, int bit) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) offset] ^= (byte) (1 << bit);
    Files.write(file, bytes);
  }
}
