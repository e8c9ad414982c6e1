package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.Settings;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.FaultyStorage;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.row.CollectedRow;
import dev.cellar.schema.Durability;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush that fails for one family (its file cannot be created: a full disk) and a later flush
 * that succeeds must not lose that family's writes made in between: its old snapshot is written
 * with the log id it was taken at, the family's newer edits keep their log segments, and replay
 * after a crash restores them. Also: files written for the other families by the failed flush are
 * deleted, and a family whose files hold an entry does not get it again at replay.
 */
class RegionFlushFailureTest {

  private static final String TABLE = "t";
  private static final byte[] A = Bytes.toBytes("a");
  private static final byte[] B = Bytes.toBytes("b");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  @TempDir Path directory;

  private final FaultyStorage storage = new FaultyStorage(Storage.local());
  private final MemStoreConfig memStoreConfig = MemStoreConfig.from(Settings.empty());
  private ChunkPool chunkPool;
  private WriteAheadLog wal;
  private Region region;

  @BeforeEach
  void open() throws IOException {
    chunkPool = new ChunkPool(memStoreConfig);
    wal = WriteAheadLog.open(directory.resolve("wal"), WalConfig.defaults());
    region = openRegion();
  }

  @AfterEach
  void close() throws IOException {
    if (region != null) {
      region.close();
    }
    wal.close();
    chunkPool.close();
  }

  private Region openRegion() throws IOException {
    Region.Services services =
        InlineServices.of(storage, wal, null, BufAllocator.HEAP, chunkPool, memStoreConfig);
    HFileContext context = HFileContext.builder().includesMvcc(true).build();
    return Region.open(
        directory.resolve(TABLE),
        TABLE,
        List.of(
            new FamilySettings(A, context, false, true, 3, Long.MAX_VALUE, 0),
            new FamilySettings(B, context, false, true, 3, Long.MAX_VALUE, 0)),
        services,
        0);
  }

  /** Simulates a crash of the process: nothing is flushed, the log is reopened from disk. */
  private void crashAndReopen() throws IOException {
    region.abort();
    region = null;
    wal.close();
    wal = WriteAheadLog.open(directory.resolve("wal"), WalConfig.defaults());
    region = openRegion();
  }

  private void put(String row, String value) throws IOException {
    put(row, value, A, B);
  }

  private void put(String row, String value, byte[]... families) throws IOException {
    byte[] rowBytes = Bytes.toBytes(row);
    List<KeyValue> cells = new ArrayList<>();
    for (byte[] family : families) {
      cells.add(
          KeyValue.create(
              rowBytes,
              family,
              QUALIFIER,
              KeyValue.LATEST_TIMESTAMP,
              CellType.PUT,
              Bytes.toBytes(value)));
    }
    region.mutate(
        List.of(new RowMutation(rowBytes, cells, Durability.SYNC_WAL)), System.currentTimeMillis());
  }

  /** The value of family:q in {@code row}, or null. */
  private String value(String family, String row) throws IOException {
    byte[] rowBytes = Bytes.toBytes(row);
    ScanRequest get =
        new ScanRequest(
            rowBytes,
            rowBytes,
            true,
            Map.of(family, List.of(QUALIFIER)),
            1,
            0,
            Long.MAX_VALUE,
            null,
            true,
            rowBytes,
            false);
    CollectedRow cells = new CollectedRow();
    try (RegionScanner scanner = region.scanner(get)) {
      return scanner.next(cells) ? Bytes.toString(cells.get(0).valueArray()) : null;
    } finally {
      cells.clear();
    }
  }

  private Path familyDirectory(byte[] family) {
    return directory.resolve(TABLE).resolve(Bytes.toString(family));
  }

  private static long regularFiles(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void writesAfterAFailedFlushOfOneFamilySurviveALaterFlushAndACrash() throws IOException {
    put("r1", "v1");
    storage.failNext(FaultyStorage.Kind.CREATE, familyDirectory(B));
    assertThrows(IOException.class, region::flush, "the family b file cannot be created");
    assertFalse(storage.armed());
    assertEquals(
        0,
        regularFiles(familyDirectory(A)),
        "the file the failed flush wrote for family a is deleted");

    put("r2", "v2");
    wal.roll();
    region.flush();
    assertEquals(1, regularFiles(familyDirectory(A)));
    assertEquals(1, regularFiles(familyDirectory(B)), "the old snapshots only");
    assertEquals(
        1,
        region.stores().get(1).memStoreSize().cellsCount(),
        "family b's newer write stays in its MemStore");

    crashAndReopen();
    for (String family : List.of("a", "b")) {
      assertEquals("v1", value(family, "r1"), family + ":r1");
      assertEquals("v2", value(family, "r2"), family + ":r2 after the crash");
    }
  }

  @Test
  void theLogKeepsTheSegmentsOfAFamilyWhoseSnapshotIsStillUnflushed() throws IOException {
    put("r1", "v1");
    storage.failNext(FaultyStorage.Kind.WRITE, familyDirectory(A));
    assertThrows(IOException.class, region::flush);

    put("r2", "v2");
    long lastBeforeRoll = wal.lastSequenceId();
    wal.roll();
    region.flush();
    assertTrue(
        region.flushedWalId() < lastBeforeRoll,
        "the table is flushed only up to family a's old snapshot, before r2's entry: "
            + region.flushedWalId()
            + " vs "
            + lastBeforeRoll);
    assertEquals(2, wal.segments().size(), "r2's segment stays: family a holds r2 unflushed");

    region.flush();
    assertTrue(region.flushedWalId() >= lastBeforeRoll);
    assertEquals(1, wal.segments().size(), "once family a flushed r2 the old segment goes");

    crashAndReopen();
    assertEquals("v2", value("a", "r2"));
    assertEquals("v2", value("b", "r2"));
  }

  @Test
  void replayAddsAnEntryOnlyToTheFamiliesWhoseFilesLackIt() throws IOException {
    put("r1", "v1", B);
    storage.failNext(FaultyStorage.Kind.CREATE, familyDirectory(B));
    assertThrows(IOException.class, region::flush);
    put("r2", "v2");
    region.flush();
    assertTrue(
        region.stores().get(0).flushedWalId() > region.stores().get(1).flushedWalId(),
        "family a, empty at the failed flush, flushed r2; family b its old snapshot only");

    crashAndReopen();
    Store a = region.stores().get(0);
    Store b = region.stores().get(1);
    assertEquals(0, a.memStoreSize().cellsCount(), "family a's files hold both entries");
    assertEquals(1, b.memStoreSize().cellsCount(), "family b's files lack r2 only");
  }
}
