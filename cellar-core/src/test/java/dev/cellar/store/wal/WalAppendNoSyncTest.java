package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.schema.Durability;
import dev.cellar.store.wal.WalTestSupport.Expected;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WriteAheadLog#appendNoSync} queues without waiting and {@link WriteAheadLog#sync} waits;
 * entries are serialized from the cells on the sync thread, through a staging buffer smaller than
 * some entries, with "now" timestamps resolved, and replay byte for byte.
 */
class WalAppendNoSyncTest {

  @TempDir Path directory;

  private final Random random = new Random(21);

  private static KeyValue cell(String row, byte[] qualifier, long timestamp, int valueSize) {
    byte[] value = new byte[valueSize];
    new Random(row.hashCode()).nextBytes(value);
    return KeyValue.create(
        Bytes.toBytes(row),
        Bytes.toBytes("f"),
        qualifier,
        timestamp,
        CellType.PUT,
        value,
        List.of(new Tag((byte) 1, Bytes.toBytes("tag of " + row))));
  }

  /** A cell with {@code whole}'s key and lengths whose value lives in another segment. */
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
      return whole.tagsLength();
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

  @Test
  void appendNoSyncReturnsWhileTheForceIsHeldAndSyncWaitsForIt() throws Exception {
    ForceGate gate = new ForceGate();
    try (WriteAheadLog wal = gate.openLog(directory)) {
      gate.shut();
      List<KeyValue> first = WalTestSupport.randomCells(random);
      long firstId = wal.appendNoSync("t", first, KeyValue.LATEST_TIMESTAMP, Durability.SYNC_WAL);
      assertTrue(gate.awaitWaiting(1, 10_000), "the sync thread forces the first entry");
      List<KeyValue> second = WalTestSupport.randomCells(random);
      long secondId = wal.appendNoSync("t", second, KeyValue.LATEST_TIMESTAMP, Durability.SYNC_WAL);
      CompletableFuture<Void> synced =
          CompletableFuture.runAsync(
              () -> {
                try {
                  wal.sync(secondId);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      Thread.sleep(100);
      assertFalse(synced.isDone(), "sync waits for the held force");
      assertTrue(wal.durableSequenceId() < firstId, "nothing is durable while the force is held");
      gate.open();
      synced.get(10, TimeUnit.SECONDS);
      assertTrue(wal.durableSequenceId() >= secondId);
      WalTestSupport.assertSameEntries(
          List.of(
              WalTestSupport.expected("t", firstId, first),
              WalTestSupport.expected("t", secondId, second)),
          WalTestSupport.replayAll(wal, 0),
          "after the held force");
    }
  }

  @Test
  void entriesLargerThanTheStagingBufferReplayExactly() throws Exception {
    int staging = EntryEncoder.STAGING_BYTES;
    List<Expected> expected = new ArrayList<>();
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      List<List<KeyValue>> entries =
          List.of(
              List.of(cell("small", Bytes.toBytes("q"), 5, 10)),
              List.of(cell("bigger than staging", Bytes.toBytes("q"), 6, staging + 777)),
              List.of(
                  cell("a", Bytes.toBytes("q"), 7, 400_000),
                  cell("b", Bytes.toBytes("q"), 8, 400_000),
                  cell("c", Bytes.toBytes("q"), 9, 400_000)),
              List.of(cell("long key", new byte[staging + 3], 10, 100)),
              List.of(cell("small again", Bytes.toBytes("q"), 11, 3)));
      long last = 0;
      for (List<KeyValue> cells : entries) {
        last = wal.appendNoSync("t", cells, KeyValue.LATEST_TIMESTAMP, Durability.ASYNC_WAL);
        expected.add(WalTestSupport.expected("t", last, cells));
      }
      wal.sync(last);
      WalTestSupport.assertSameEntries(expected, WalTestSupport.replayAll(wal, 0), "while open");
    }
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      WalTestSupport.assertSameEntries(expected, WalTestSupport.replayAll(wal, 0), "reopened");
    }
  }

  @Test
  void latestTimestampsAreWrittenAsTheWritesTimeAndOthersAsTheyAre() throws Exception {
    KeyValue now = cell("now", Bytes.toBytes("q"), KeyValue.LATEST_TIMESTAMP, 20);
    KeyValue explicit = cell("explicit", Bytes.toBytes("q"), 42, 20);
    KeyValue longKeyNow =
        cell("long key", new byte[EntryEncoder.STAGING_BYTES - 40], KeyValue.LATEST_TIMESTAMP, 20);
    KeyValue splitWhole = cell("split", Bytes.toBytes("q"), KeyValue.LATEST_TIMESTAMP, 30);
    Cell split =
        new SplitCell(
            cell("split", Bytes.toBytes("q"), KeyValue.LATEST_TIMESTAMP, 30),
            MemorySegment.ofArray(splitWhole.valueArray()));
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      long id =
          wal.appendNoSync(
              "t", List.of(now, explicit, longKeyNow, split), 1234, Durability.SYNC_WAL);
      wal.sync(id);
      List<Cell> replayed = new ArrayList<>();
      wal.replay(0, entry -> entry.cells().forEach(c -> replayed.add(KeyValue.copyOf(c))));
      assertEquals(
          List.of(1234L, 42L, 1234L, 1234L), replayed.stream().map(Cell::timestamp).toList());
      List<Cell> sources = List.of(now, explicit, longKeyNow, splitWhole);
      for (int i = 0; i < sources.size(); i++) {
        assertArrayEquals(
            WalTestSupport.serialized(KeyValue.copyOf(sources.get(i), 1234)),
            WalTestSupport.serialized(replayed.get(i)),
            "cell " + i);
      }
      assertEquals(KeyValue.LATEST_TIMESTAMP, now.timestamp(), "the caller's cell is untouched");
    }
  }
}
