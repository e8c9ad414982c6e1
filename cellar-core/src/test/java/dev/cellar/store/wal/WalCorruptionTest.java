package dev.cellar.store.wal;

import static dev.cellar.store.wal.WalTestSupport.assertSameEntries;
import static dev.cellar.store.wal.WalTestSupport.expected;
import static dev.cellar.store.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import dev.cellar.store.wal.WalTestSupport.Expected;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage inside a segment that is not the last one is never skipped: opening or replaying fails
 * with a {@link CorruptWalException} naming the file and the offset of the damaged header or entry.
 */
@ExtendWith(TestSeedExtension.class)
class WalCorruptionTest {

  @TempDir Path root;

  private Path base;
  private List<Expected> oracle;
  private List<Path> segments;

  /** A log of three segments of eight entries each. */
  @BeforeEach
  void buildLog() throws IOException {
    base = root.resolve("base");
    oracle = new ArrayList<>();
    Random random = new Random(11);
    try (WriteAheadLog wal = WriteAheadLog.open(base, WalConfig.defaults())) {
      for (int i = 0; i < 24; i++) {
        if (i > 0 && i % 8 == 0) {
          wal.roll();
        }
        List<KeyValue> cells = WalTestSupport.randomCells(random);
        oracle.add(expected("t", wal.append("t", cells, Durability.ASYNC_WAL), cells));
      }
    }
    segments = WalTestSupport.segmentFiles(base);
    assertEquals(3, segments.size());
  }

  @Test
  void aFlippedBitInAMiddleSegmentFailsTheOpenNamingFileAndOffset(TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    List<Long> offsets = WalTestSupport.entryOffsets(segments.get(1));
    for (int round = 0; round < 20; round++) {
      int entry = 1 + random.nextInt(offsets.size() - 3);
      long start = offsets.get(entry);
      long offset = start + random.nextLong(offsets.get(entry + 1) - start);
      Path directory = root.resolve("flip-" + round);
      WalTestSupport.copyDirectory(base, directory);
      Path damaged = directory.resolve(segments.get(1).getFileName());
      WalTestSupport.flipBit(damaged, offset, random.nextInt(8));
      String context = "bit flipped at " + offset + " in entry " + entry + " at " + start;
      CorruptWalException error =
          assertThrows(
              CorruptWalException.class,
              () -> WriteAheadLog.open(directory, WalConfig.defaults()).close(),
              context);
      assertEquals(damaged, error.file(), context);
      assertEquals(start, error.offset(), context);
      assertTrue(
          error.getMessage().contains(damaged.toString())
              && error.getMessage().contains("offset " + start)
              && error.getMessage().contains("expected")
              && error.getMessage().contains("found"),
          error.getMessage());
    }
  }

  @Test
  void aCrcMismatchNamesTheExpectedAndFoundChecksums() throws IOException {
    List<Long> offsets = WalTestSupport.entryOffsets(segments.getFirst());
    long start = offsets.get(3);
    Path damaged = segments.getFirst();
    WalTestSupport.flipBit(damaged, offsets.get(4) - WalLayout.CRC_SIZE - 1, 0);
    CorruptWalException error =
        assertThrows(
            CorruptWalException.class,
            () -> WriteAheadLog.open(base, WalConfig.defaults()).close());
    assertEquals(start, error.offset());
    assertTrue(
        error
            .getMessage()
            .matches(
                ".*entry CRC32C \\(expected 0x\\p{XDigit}{8} \\(stored\\),"
                    + " found 0x\\p{XDigit}{8} \\(computed\\)\\).*"),
        error.getMessage());
  }

  @Test
  void aDamagedHeaderOfAMiddleSegmentFailsTheOpen() throws IOException {
    Path damaged = segments.get(1);
    WalTestSupport.flipBit(damaged, WalLayout.CREATION_TIME_OFFSET + 3, 5);
    CorruptWalException error =
        assertThrows(
            CorruptWalException.class,
            () -> WriteAheadLog.open(base, WalConfig.defaults()).close());
    assertEquals(damaged, error.file());
    assertEquals(0, error.offset());
    assertTrue(error.getMessage().contains("header CRC32C"), error.getMessage());
  }

  @Test
  void aTruncatedMiddleSegmentFailsTheOpen() throws IOException {
    Path damaged = segments.get(1);
    List<Long> offsets = WalTestSupport.entryOffsets(damaged);
    long start = offsets.get(offsets.size() - 2);
    byte[] bytes = Files.readAllBytes(damaged);
    Files.write(damaged, java.util.Arrays.copyOf(bytes, (int) start + 5));
    CorruptWalException error =
        assertThrows(
            CorruptWalException.class,
            () -> WriteAheadLog.open(base, WalConfig.defaults()).close());
    assertEquals(start, error.offset());
  }

  @Test
  void damageFoundByAReplayOfAnOpenLogNamesFileAndOffset() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(base, WalConfig.defaults())) {
      Path damaged = segments.getFirst();
      long start = WalTestSupport.entryOffsets(damaged).get(2);
      WalTestSupport.flipBit(damaged, start + WalLayout.TABLE_OFFSET, 1);
      CorruptWalException error = assertThrows(CorruptWalException.class, () -> replayAll(wal, 0));
      assertEquals(damaged, error.file());
      assertEquals(start, error.offset());
      assertSameEntries(
          oracle.subList(16, 24),
          replayAll(wal, oracle.get(15).sequenceId()),
          "a replay that starts after the damaged segment");
    }
  }

  @Test
  void aDamagedEntryInTheLastSegmentEndsItThere() throws IOException {
    Path last = segments.getLast();
    long start = WalTestSupport.entryOffsets(last).get(4);
    WalTestSupport.flipBit(last, start + WalLayout.SEQUENCE_ID_OFFSET + 2, 3);
    try (WriteAheadLog wal = WriteAheadLog.open(base, WalConfig.defaults())) {
      assertSameEntries(
          oracle.subList(0, 20),
          replayAll(wal, 0),
          "the last segment is cut at its first bad entry: a crash may have torn it");
      assertEquals(start, Files.size(last));
    }
  }
}
