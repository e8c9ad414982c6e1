package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table's manifest decides which files are live: a compaction input a crash left behind is
 * deleted at open, so a put whose delete marker the compaction dropped stays deleted; a flush or
 * compaction output never recorded is deleted; a torn last record is dropped; damage before the
 * last record fails the open naming the file and offset; a failed manifest write leaves the file
 * set as it was.
 */
class ManifestTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
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
    return Region.open(
        directory.resolve("t"),
        "t",
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

  private void reopen() throws IOException {
    region.close();
    region = null;
    region = openRegion();
  }

  private void write(String row, CellType type) throws IOException {
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

  private String value(String row) throws IOException {
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

  private Path family() {
    return directory.resolve("t").resolve("f");
  }

  private Path manifest() {
    return directory.resolve("t").resolve(Manifest.FILE_NAME);
  }

  @Test
  void aCompactionInputLeftByACrashIsDeletedSoADeletedCellStaysDeleted() throws IOException {
    write("k", CellType.PUT);
    region.flush();
    Path putFile = region.stores().get(0).filePaths().get(0);
    byte[] putBytes = Files.readAllBytes(putFile);
    write("k", CellType.DELETE_COLUMN);
    region.flush();
    region.compact(true);
    assertNull(value("k"));
    reopen();
    Files.write(putFile, putBytes);

    reopen();
    assertFalse(Files.exists(putFile), "the retired input is not in the manifest: deleted");
    assertNull(value("k"), "the put does not come back without its delete marker");
  }

  @Test
  void aFlushOutputWhoseCommitRecordNeverLandedIsAdoptedNotDeleted() throws IOException {
    write("a", CellType.PUT);
    int[] manifestWrites = new int[1];
    storage.failNext(
        operation ->
            operation.kind() == FaultyStorage.Kind.WRITE
                && operation.path().getFileName().toString().startsWith(Manifest.FILE_NAME)
                && ++manifestWrites[0] == 2);
    assertThrows(IOException.class, region::flush, "the commit record cannot be written");
    assertEquals(0, region.stores().get(0).fileCount(), "nothing was added");
    assertEquals("v", value("a"), "the write is still in the MemStore");
    region.abort();
    region = null;
    List<Path> left = hfilesOf(family());
    assertEquals(1, left.size(), "the flush's output is left, unrecorded: " + left);

    region = openRegion();
    assertEquals(left, region.stores().get(0).filePaths(), "its intent was recorded: adopted");
    assertEquals("v", value("a"), "from the file, and replayed from the log");
    reopen();
    assertEquals(left, region.stores().get(0).filePaths(), "recorded by the open");
  }

  @Test
  void theOutputOfACompactionThatFailedWhileTheProcessWentOnNeverComesBack() throws IOException {
    write("k", CellType.PUT);
    region.flush();
    write("other", CellType.PUT);
    region.flush();
    storage.failNext(
        operation ->
            operation.kind() == FaultyStorage.Kind.SYNC_DIRECTORY
                && operation.path().equals(family()));
    assertThrows(IOException.class, () -> region.compact(true), "the output's directory force");
    List<Path> stale =
        hfilesOf(family()).stream()
            .filter(path -> !region.stores().get(0).filePaths().contains(path))
            .toList();
    assertEquals(1, stale.size(), "the failed compaction's output is left: " + stale);
    write("k", CellType.DELETE_COLUMN);
    region.flush();
    region.compact(true);
    assertNull(value("k"));
    region.abort();
    region = null;

    region = openRegion();
    assertFalse(Files.exists(stale.get(0)), "a later record could have committed it: stale");
    assertNull(value("k"), "the put its delete marker's major compaction dropped stays deleted");
  }

  @Test
  void aFileNothingAccountsForIsRefusedAndNothingChanges() throws IOException {
    write("a", CellType.PUT);
    region.flush();
    region.abort();
    region = null;
    Path stray = family().resolve("0badc0ffee");
    Files.writeString(stray, "a file no flush, compaction or bulk load wrote");
    Map<String, String> before = DirectoryHash.of(directory.resolve("t"));

    DamagedTableException refused = assertThrows(DamagedTableException.class, this::openRegion);
    assertTrue(
        refused.getMessage().contains(stray.toString())
            && refused.getMessage().contains("cellar repair"),
        refused.getMessage());
    assertEquals(before, DirectoryHash.of(directory.resolve("t")), "a refusal changes nothing");
    assertTrue(Files.exists(stray));
  }

  @Test
  void aManifestCutAtARecordBoundaryIsRefusedNotEmptied() throws IOException {
    write("a", CellType.PUT);
    region.flush();
    reopen();
    long compacted = Files.size(manifest());
    for (String row : List.of("b", "c", "d")) {
      write(row, CellType.PUT);
      region.flush();
    }
    region.abort();
    region = null;
    try (var channel =
        java.nio.channels.FileChannel.open(manifest(), java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(compacted);
    }
    Map<String, String> before = DirectoryHash.of(directory.resolve("t"));

    DamagedTableException refused = assertThrows(DamagedTableException.class, this::openRegion);
    assertEquals(3, refused.problems().size(), refused.getMessage());
    assertEquals(before, DirectoryHash.of(directory.resolve("t")), "no file was deleted");
  }

  private static List<Path> hfilesOf(Path familyDirectory) throws IOException {
    try (var files = Files.list(familyDirectory)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void aTornLastRecordIsDroppedAndDamageBeforeItIsNamed() throws IOException {
    write("a", CellType.PUT);
    region.flush();
    write("b", CellType.PUT);
    region.flush();
    region.abort();
    region = null;
    long intact = Files.size(manifest());
    byte[] bytes = Files.readAllBytes(manifest());

    Files.write(manifest(), Arrays.copyOf(bytes, bytes.length - 3));
    region = openRegion();
    assertEquals("v", value("a"));
    assertEquals("v", value("b"), "the torn record's flush is replayed from the log");
    region.abort();
    region = null;

    byte[] damaged = Files.readAllBytes(manifest());
    int firstPayload = ManifestCodec.MAGIC.length + ManifestCodec.RECORD_HEADER;
    damaged[firstPayload + 2] ^= 0x40;
    byte[] withMore = new byte[damaged.length + (int) intact - ManifestCodec.MAGIC.length];
    System.arraycopy(damaged, 0, withMore, 0, damaged.length);
    System.arraycopy(
        bytes,
        ManifestCodec.MAGIC.length,
        withMore,
        damaged.length,
        (int) intact - ManifestCodec.MAGIC.length);
    Files.write(manifest(), withMore);
    CorruptManifestException failure =
        assertThrows(CorruptManifestException.class, this::openRegion);
    assertTrue(
        failure.getMessage().contains(manifest().toString())
            && failure.getMessage().contains("offset " + ManifestCodec.MAGIC.length),
        failure.getMessage());
  }

  @Test
  void recordsRoundTripAndARewriteKeepsTheState() throws IOException {
    List<Manifest.Edit> edits =
        List.of(
            new Manifest.Edit("f", 7, List.of("a1", "b2"), List.of()),
            new Manifest.Edit("g", Manifest.UNCHANGED, List.of("c3"), List.of("a1")));
    byte[] record = ManifestCodec.encodeRecord(edits);
    assertEquals(
        edits,
        ManifestCodec.decode(
            ByteBuffer.wrap(
                record, ManifestCodec.RECORD_HEADER, record.length - ManifestCodec.RECORD_HEADER)));

    for (int i = 0; i < 10; i++) {
      write("r" + i, CellType.PUT);
      region.flush();
    }
    List<Path> live = region.stores().get(0).filePaths();
    long before = Files.size(manifest());
    reopen();
    assertEquals(live, region.stores().get(0).filePaths(), "the same files, in the same order");
    assertTrue(Files.size(manifest()) < before, "rewritten as one record of the state");
    for (int i = 0; i < 10; i++) {
      assertEquals("v", value("r" + i));
    }
  }
}
