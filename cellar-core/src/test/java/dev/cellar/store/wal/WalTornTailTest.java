package dev.cellar.store.wal;

import static dev.cellar.store.wal.WalTestSupport.assertSameEntries;
import static dev.cellar.store.wal.WalTestSupport.expected;
import static dev.cellar.store.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.store.wal.WalTestSupport.Expected;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash can tear the last segment anywhere. Opening cuts it back to its last whole entry (the
 * torn bytes are truncated away, and the cut is durable), replays everything before, and appends
 * continue in a new segment with ids above the survivors.
 */
class WalTornTailTest {

  @TempDir Path root;

  private Path base;
  private List<Expected> oracle;
  private Path lastSegment;

  /** A log of two segments whose last entry is small, so every byte of it can be cut. */
  @BeforeEach
  void buildLog() throws IOException {
    base = root.resolve("base");
    oracle = new ArrayList<>();
    Random random = new Random(7);
    try (WriteAheadLog wal = WriteAheadLog.open(base, WalConfig.defaults())) {
      for (int i = 0; i < 9; i++) {
        if (i == 5) {
          wal.roll();
        }
        List<KeyValue> cells = WalTestSupport.randomCells(random);
        oracle.add(expected("t" + i % 2, wal.append("t" + i % 2, cells), cells));
      }
      List<KeyValue> small =
          List.of(
              KeyValue.create(
                  Bytes.toBytes("r"),
                  Bytes.toBytes("f"),
                  Bytes.toBytes("q"),
                  1,
                  CellType.PUT,
                  Bytes.toBytes("v")));
      oracle.add(expected("t", wal.append("t", small), small));
    }
    List<Path> segments = WalTestSupport.segmentFiles(base);
    assertEquals(2, segments.size());
    lastSegment = segments.getLast();
  }

  @Test
  void aTailTornAtEveryByteOfTheLastEntryIsCutAndAppendsContinue() throws IOException {
    List<Long> offsets = WalTestSupport.entryOffsets(lastSegment);
    long start = offsets.get(offsets.size() - 2);
    long end = offsets.getLast();
    assertEquals(Files.size(lastSegment), end);
    List<Expected> survivors = oracle.subList(0, oracle.size() - 1);
    for (long cut = start; cut < end; cut++) {
      String context = "last entry [" + start + ", " + end + ") cut at " + cut;
      Path directory = root.resolve("cut-" + cut);
      Path torn = copyWithLastSegmentCut(directory, cut);
      List<Expected> expected = new ArrayList<>(survivors);
      try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
        assertSameEntries(survivors, replayAll(wal, 0), context);
        assertEquals(start, Files.size(torn), context + ": the torn bytes are truncated away");
        List<KeyValue> cells = List.of(WalTestSupport.randomCell(new Random(cut)));
        long id = wal.append("after", cells);
        assertTrue(id > survivors.getLast().sequenceId(), context + ": id " + id);
        expected.add(expected("after", id, cells));
        assertFalse(
            wal.segments().getLast().equals(torn), context + ": appends go to a new segment");
      }
      try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
        assertSameEntries(expected, replayAll(wal, 0), context + ", after reopening");
      }
    }
  }

  @Test
  void aSegmentWithATornHeaderIsDeleted() throws IOException {
    long nextId = oracle.getLast().sequenceId() + 1;
    for (int length : new int[] {0, 1, 4, WalLayout.HEADER_SIZE - 1, WalLayout.HEADER_SIZE}) {
      String context = "a new segment of " + length + " bytes";
      Path directory = root.resolve("header-" + length);
      WalTestSupport.copyDirectory(base, directory);
      Path torn = directory.resolve(WalLayout.fileName(nextId));
      Files.write(torn, Files.readAllBytes(lastSegment), StandardOpenOption.CREATE_NEW);
      try (RandomAccessFile file = new RandomAccessFile(torn.toFile(), "rw")) {
        file.setLength(length);
      }
      try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
        assertSameEntries(oracle, replayAll(wal, 0), context);
        assertEquals(nextId, wal.append("t", oracle.getFirst().cells()), context);
      }
    }
  }

  @Test
  void aZeroFilledTailIsCut() throws IOException {
    Path directory = root.resolve("zeros");
    WalTestSupport.copyDirectory(base, directory);
    Path segment = directory.resolve(lastSegment.getFileName());
    long size = Files.size(segment);
    Files.write(segment, new byte[8192], StandardOpenOption.APPEND);
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      assertSameEntries(oracle, replayAll(wal, 0), "a zero-filled tail");
      assertEquals(size, Files.size(segment));
    }
  }

  private Path copyWithLastSegmentCut(Path directory, long length) throws IOException {
    WalTestSupport.copyDirectory(base, directory);
    Path segment = directory.resolve(lastSegment.getFileName());
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.setLength(length);
    }
    return segment;
  }
}
