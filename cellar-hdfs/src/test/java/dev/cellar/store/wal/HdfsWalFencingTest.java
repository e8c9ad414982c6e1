package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.io.StorageLocation;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A log writer on HDFS that was only paused while another opener took its directory over (by
 * recovering the lease of its {@code LOCK}) fails at its next segment, before writing an entry
 * there, and leaves no segment behind.
 */
class HdfsWalFencingTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  @Test
  void aWriterWhoseLockWasTakenOverFailsAtItsNextSegmentAndLeavesNoneBehind() throws Exception {
    String location = hdfs.newDirectory("fenced-wal");
    Random random = new Random(7);
    try (StorageLocation resolved =
            StorageLocation.resolve(location, EngineAccess.settings(hdfs.config()));
        FileSystem other = FileSystem.newInstance(hdfs.root(), new Configuration())) {
      Path directory = resolved.directory();
      WriteAheadLog wal = WriteAheadLog.open(resolved.storage(), directory, WalConfig.defaults());
      try {
        wal.append("t", List.of(WalTestSupport.randomCell(random)));
        List<Path> before = resolved.storage().list(directory);
        org.apache.hadoop.fs.Path lock =
            new org.apache.hadoop.fs.Path(URI.create(location + "/LOCK"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!((DistributedFileSystem) other).recoverLease(lock)) {
          assertTrue(System.nanoTime() < deadline, "the lease was not recovered");
          Thread.sleep(100);
        }
        IOException fenced = assertThrows(IOException.class, wal::roll);
        assertTrue(fenced.getMessage().contains("no longer holds"), fenced.getMessage());
        assertThrows(
            IOException.class, () -> wal.append("t", List.of(WalTestSupport.randomCell(random))));
        assertEquals(before, resolved.storage().list(directory), "no new segment stays");
      } finally {
        try {
          wal.close();
        } catch (IOException expected) {
          // the log failed when it was fenced
        }
      }
    }
  }
}
