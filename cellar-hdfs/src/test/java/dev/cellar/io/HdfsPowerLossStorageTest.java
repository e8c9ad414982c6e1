package dev.cellar.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HDFS power-loss model itself, on a MiniDFSCluster: bytes past a file's last {@code hsync} are
 * gone after the power comes back, {@code hflush}ed ones included (unless {@code hbase.wal.hsync}
 * makes the log's force an {@code hsync}), while creates, renames and deletes all stay; and from
 * the cut on, every operation fails.
 */
class HdfsPowerLossStorageTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);
  private static StorageLocation hflushing;
  private static StorageLocation hsyncing;

  @BeforeAll
  static void resolve() throws IOException {
    hflushing = hdfs.location("/model", hdfs.config());
    hsyncing = hdfs.location("/model", hdfs.config().with("hbase.wal.hsync", "true"));
  }

  private static byte[] bytes(int length, int seed) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) seed);
    return bytes;
  }

  private static HdfsPowerLossStorage wrap(StorageLocation location, boolean hsyncs)
      throws IOException {
    return new HdfsPowerLossStorage(hdfs, location.storage(), hsyncs);
  }

  @Test
  void onlyHsyncedBytesAndEveryNamespaceChangeSurviveAPowerLoss() throws IOException {
    HdfsPowerLossStorage storage = wrap(hflushing, false);
    Path directory = hflushing.directory().resolve("model-1");
    storage.createDirectories(directory);
    try (AppendOnlyFile synced = storage.create(directory.resolve("synced"));
        AppendOnlyFile flushed = storage.create(directory.resolve("flushed"))) {
      synced.append(bytes(1000, 1), 0, 1000);
      synced.sync();
      synced.append(bytes(500, 2), 0, 500);
      synced.syncData();
      flushed.append(bytes(700, 3), 0, 700);
      flushed.syncData();
    }
    try (AppendOnlyFile renamed = storage.create(directory.resolve("renamed.tmp"))) {
      renamed.append(bytes(300, 4), 0, 300);
      renamed.sync();
    }
    storage.rename(directory.resolve("renamed.tmp"), directory.resolve("renamed"));
    try (AppendOnlyFile deleted = storage.create(directory.resolve("deleted"))) {
      deleted.sync();
    }
    storage.deleteIfExists(directory.resolve("deleted"));
    assertEquals(1500, storage.size(directory.resolve("synced")), "readable before the cut");

    storage.cutAt(storage.operations());
    assertThrows(IOException.class, () -> storage.create(directory.resolve("after-the-cut")));
    storage.powerLoss();

    assertArrayEquals(
        bytes(1000, 1),
        storage.readAllBytes(directory.resolve("synced")),
        "hsynced bytes stay, hflushed ones after them go");
    assertEquals(0, storage.size(directory.resolve("flushed")), "hflushed only: all gone");
    assertArrayEquals(
        bytes(300, 4),
        storage.readAllBytes(directory.resolve("renamed")),
        "a rename is durable once the NameNode answered");
    assertFalse(storage.isFile(directory.resolve("renamed.tmp")));
    assertFalse(storage.isFile(directory.resolve("deleted")), "so is a delete");
    assertFalse(storage.isFile(directory.resolve("after-the-cut")));
  }

  @Test
  void aLogForcedWithHsyncKeepsWhatItAcknowledged() throws IOException {
    HdfsPowerLossStorage storage = wrap(hsyncing, true);
    Path directory = hsyncing.directory().resolve("model-2");
    storage.createDirectories(directory);
    AppendOnlyFile log = storage.create(directory.resolve("log"));
    log.append(bytes(800, 5), 0, 800);
    log.syncData();
    log.append(bytes(200, 6), 0, 200);
    storage.cutAt(storage.operations());
    storage.powerLoss();
    assertArrayEquals(
        bytes(800, 5),
        storage.readAllBytes(directory.resolve("log")),
        "the stream left open is closed as lease recovery would; the unforced tail is gone");
    assertTrue(storage.isDirectory(directory));
  }
}
