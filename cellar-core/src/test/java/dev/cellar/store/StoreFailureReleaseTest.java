package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.row.CollectedRow;
import dev.cellar.schema.Durability;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures part way through a read or a compaction give back everything taken so far: a scan whose
 * seek fails in one file closes the scanners already positioned in the others (each held a pinned
 * pooled block and a file reference), forward and reversed; a compaction whose output cannot be
 * written releases its inputs' blocks and leaves the store as it was.
 */
class StoreFailureReleaseTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int ROWS = 200;

  @TempDir Path directory;

  private final FaultyStorage storage = new FaultyStorage(Storage.local());
  private final MemStoreConfig memStoreConfig = MemStoreConfig.from(Settings.empty());
  private BufAllocator allocator;
  private ChunkPool chunkPool;
  private WriteAheadLog wal;
  private Region region;

  @BeforeEach
  void open() throws IOException {
    allocator = new BufAllocator(BufAllocatorConfig.from(Settings.empty()));
    chunkPool = new ChunkPool(memStoreConfig);
    wal = WriteAheadLog.open(directory.resolve("wal"), WalConfig.defaults());
    Region.Services services =
        InlineServices.of(storage, wal, null, allocator, chunkPool, memStoreConfig);
    region =
        Region.open(
            directory.resolve("t"),
            "t",
            List.of(
                new FamilySettings(
                    FAMILY,
                    HFileContext.builder().includesMvcc(true).blockSize(1024).build(),
                    false,
                    true,
                    3,
                    Long.MAX_VALUE,
                    0)),
            services,
            0);
  }

  @AfterEach
  void close() throws IOException {
    region.abort();
    wal.close();
    chunkPool.close();
    allocator.close();
  }

  private void writeFile(int from) throws IOException {
    for (int i = from; i < from + ROWS; i += 2) {
      byte[] row = Bytes.toBytes(String.format("row-%05d", i));
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
  }

  /** Two files with interleaved rows; the newer one's first data block damaged. */
  private void twoFilesTheNewerDamaged() throws IOException {
    writeFile(0);
    writeFile(1);
    List<Path> files = region.stores().get(0).filePaths();
    assertEquals(2, files.size());
    try (FileChannel channel = FileChannel.open(files.get(1), StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(new byte[] {0x55, 0x66, 0x77}), 60);
    }
  }

  private int scan(boolean reversed) throws IOException {
    ScanRequest request =
        new ScanRequest(
            Bytes.EMPTY,
            Bytes.EMPTY,
            false,
            Map.of(),
            1,
            0,
            Long.MAX_VALUE,
            null,
            true,
            null,
            reversed);
    CollectedRow row = new CollectedRow();
    int rows = 0;
    try (RegionScanner scanner = region.scanner(request)) {
      while (scanner.next(row)) {
        rows++;
        row.clear();
      }
    } finally {
      row.clear();
    }
    return rows;
  }

  private int pooledBuffersInUse() {
    return allocator.stats().usedBufferCount();
  }

  @Test
  void aScanWhoseSeekFailsReleasesTheFilesAlreadyPositioned() throws IOException {
    twoFilesTheNewerDamaged();
    int before = pooledBuffersInUse();
    IOException failure = assertThrows(IOException.class, () -> scan(false));
    assertTrue(
        failure
            .getMessage()
            .contains(region.stores().get(0).filePaths().get(1).getFileName().toString()),
        failure.getMessage());
    assertEquals(before, pooledBuffersInUse(), "the older file's block is released");
  }

  @Test
  void aReversedScanWhoseSeekFailsReleasesTheFilesAlreadyPositioned() throws IOException {
    twoFilesTheNewerDamaged();
    int before = pooledBuffersInUse();
    assertThrows(IOException.class, () -> scan(true));
    assertEquals(before, pooledBuffersInUse(), "the older file's block is released");
  }

  @Test
  void aCompactionThatCannotWriteReleasesItsInputsAndChangesNothing() throws IOException {
    writeFile(0);
    writeFile(1);
    Path family = directory.resolve("t").resolve("f");
    List<Path> before = region.stores().get(0).filePaths();
    int buffersBefore = pooledBuffersInUse();
    storage.failNext(FaultyStorage.Kind.WRITE, family);
    assertThrows(IOException.class, () -> region.compact(true));
    assertEquals(buffersBefore, pooledBuffersInUse(), "the inputs' blocks are released");
    assertEquals(before, region.stores().get(0).filePaths());
    try (Stream<Path> tmp = Files.list(family.resolve(".tmp"))) {
      assertEquals(0, tmp.count(), "the partial output is deleted");
    }
    assertEquals(ROWS * 2 / 2, scan(false));

    assertTrue(region.compact(true), "a later compaction succeeds");
    assertEquals(1, region.stores().get(0).fileCount());
    assertEquals(ROWS, scan(false));
  }
}
