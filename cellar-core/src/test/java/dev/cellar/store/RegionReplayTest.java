package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.Settings;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.row.CollectedRow;
import dev.cellar.schema.Durability;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay after a crash when the log keeps an old segment for another table's sake while a newer one
 * was deleted: a table whose major compaction dropped every cell still knows how far it is flushed
 * (the compaction leaves an empty file recording it), so a put from the old segment does not come
 * back without the delete that followed it.
 */
class RegionReplayTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  @TempDir Path directory;

  private final MemStoreConfig memStoreConfig = MemStoreConfig.from(Settings.empty());
  private ChunkPool chunkPool;
  private WriteAheadLog wal;
  private Region t;
  private Region u;

  @BeforeEach
  void open() throws IOException {
    chunkPool = new ChunkPool(memStoreConfig);
    wal = WriteAheadLog.open(directory.resolve("wal"), WalConfig.defaults());
    t = openRegion("t");
    u = openRegion("u");
  }

  @AfterEach
  void close() throws IOException {
    t.close();
    u.close();
    wal.close();
    chunkPool.close();
  }

  private Region openRegion(String name) throws IOException {
    Region.Services services =
        InlineServices.of(Storage.local(), wal, null, BufAllocator.HEAP, chunkPool, memStoreConfig);
    return Region.open(
        directory.resolve(name),
        name,
        List.of(
            new FamilySettings(
                FAMILY,
                HFileContext.builder().includesMvcc(true).build(),
                false,
                true,
                3,
                Long.MAX_VALUE,
                0)),
        services,
        0);
  }

  private static void write(Region region, String row, CellType type) throws IOException {
    byte[] rowBytes = Bytes.toBytes(row);
    KeyValue cell =
        KeyValue.create(
            rowBytes,
            FAMILY,
            QUALIFIER,
            KeyValue.LATEST_TIMESTAMP,
            type,
            type == CellType.PUT ? Bytes.toBytes("v") : Bytes.EMPTY);
    region.mutate(
        List.of(new RowMutation(rowBytes, List.of(cell), Durability.SYNC_WAL)),
        System.currentTimeMillis());
  }

  private static String value(Region region, String row) throws IOException {
    byte[] rowBytes = Bytes.toBytes(row);
    ScanRequest get =
        new ScanRequest(
            rowBytes,
            rowBytes,
            true,
            Map.of("f", List.of(QUALIFIER)),
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

  @Test
  void aDeleteCompactedAwayStaysDeletedWhenAnOlderSegmentIsReplayed() throws IOException {
    write(t, "k", CellType.PUT);
    write(u, "other", CellType.PUT);
    wal.roll();
    write(t, "k", CellType.DELETE_COLUMN);
    wal.roll();
    t.flush();
    assertEquals(
        2,
        wal.segments().size(),
        "the first segment stays for table u; the second, only t's, is deleted");
    t.compact(true);
    assertEquals(1, t.stores().get(0).fileCount(), "the compaction leaves one empty file");
    assertNull(value(t, "k"));

    t.abort();
    u.abort();
    wal.close();
    wal = WriteAheadLog.open(directory.resolve("wal"), WalConfig.defaults());
    t = openRegion("t");
    u = openRegion("u");
    assertNull(value(t, "k"), "the put replayed from the first segment without its delete");
    assertEquals("v", value(u, "other"));
  }
}
