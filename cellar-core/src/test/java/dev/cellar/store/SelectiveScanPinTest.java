package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.Settings;
import dev.cellar.filter.Filter;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
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
 * A selective filtered scan (HBase PE's filterScan: a single-column value filter that one row in
 * thousands passes) holds only the blocks around its position while one {@code next()} call passes
 * hundreds of cached blocks, not every block it passed: the filter itself watches the pins of the
 * row holder as the scan calls it.
 */
class SelectiveScanPinTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int ROWS = 3000;

  @TempDir Path directory;

  private final MemStoreConfig memStoreConfig = MemStoreConfig.from(Settings.empty());
  private BufAllocator allocator;
  private LruBlockCache cache;
  private final CollectedRow row = new CollectedRow();
  private ChunkPool chunkPool;
  private WriteAheadLog wal;
  private Region region;

  @BeforeEach
  void open() throws IOException {
    allocator = new BufAllocator(BufAllocatorConfig.from(Settings.empty()));
    chunkPool = new ChunkPool(memStoreConfig);
    wal = WriteAheadLog.open(directory.resolve("wal"), WalConfig.defaults());
    cache =
        new LruBlockCache(
            LruBlockCacheConfig.from(
                Settings.of(Map.of(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, "64m"))),
            Runnable::run);
    Region.Services services =
        InlineServices.of(Storage.local(), wal, cache, allocator, chunkPool, memStoreConfig);
    region =
        Region.open(
            directory.resolve("t"),
            "t",
            List.of(
                new FamilySettings(
                    FAMILY,
                    HFileContext.builder().includesMvcc(true).blockSize(512).build(),
                    false,
                    true,
                    1,
                    Long.MAX_VALUE,
                    0)),
            services,
            0);
  }

  @AfterEach
  void close() throws IOException {
    row.clear();
    region.close();
    cache.shutdown();
    wal.close();
    chunkPool.close();
    allocator.close();
  }

  /**
   * Keeps a row only if its value is the last row's, deciding on the whole row as HBase's
   * single-column value filter does (every cell is included, then {@code filterRow} drops the row);
   * notes the most blocks the row holder pins while it is called.
   */
  private final class WatchingFilter extends Filter {
    private final byte[] wanted = Bytes.toBytes("value-" + (ROWS - 1));
    private boolean matched;
    int mostInUse;
    int cellsSeen;

    @Override
    public void reset() {
      matched = false;
    }

    @Override
    public ReturnCode filterCell(Cell cell) {
      cellsSeen++;
      mostInUse = Math.max(mostInUse, row.pinnedBuffers());
      matched |= Bytes.equals(cell.segment(), cell.valueOffset(), cell.valueLength(), wanted);
      return ReturnCode.INCLUDE;
    }

    @Override
    public boolean filterRow() {
      return !matched;
    }

    @Override
    public boolean hasFilterRow() {
      return true;
    }
  }

  @Test
  void aScanPassingManyBlocksForOneRowHoldsFewOfThem() throws IOException {
    for (int i = 0; i < ROWS; i++) {
      byte[] row = Bytes.toBytes(String.format("row-%06d", i));
      region.mutate(
          List.of(
              new RowMutation(
                  row,
                  List.of(
                      KeyValue.create(
                          row, FAMILY, QUALIFIER, 1, CellType.PUT, Bytes.toBytes("value-" + i))),
                  Durability.SKIP_WAL)),
          0);
    }
    region.flush();
    WatchingFilter filter = new WatchingFilter();
    ScanRequest request =
        new ScanRequest(
            Bytes.EMPTY,
            Bytes.EMPTY,
            false,
            Map.of(),
            1,
            0,
            Long.MAX_VALUE,
            filter,
            true,
            null,
            false);
    int rows = 0;
    try (RegionScanner scanner = region.scanner(request)) {
      while (scanner.next(row)) {
        rows++;
        row.clear();
      }
    }
    assertEquals(1, rows);
    assertEquals(ROWS, filter.cellsSeen);
    assertTrue(
        filter.mostInUse <= 4,
        "the row holder's pins during the scan peaked at "
            + filter.mostInUse
            + " (the file has about "
            + ROWS * 40 / 512
            + " blocks)");
  }
}
