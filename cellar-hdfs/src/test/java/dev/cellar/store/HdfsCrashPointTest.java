package dev.cellar.store;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.io.HdfsPowerLossStorage;
import dev.cellar.io.PowerCut;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link CrashPointTest} with the table and its log on a MiniDFSCluster: a failure injected at
 * every file operation of open, flushes, compactions and close on HDFS, and a power loss of the
 * whole cluster before each ({@link HdfsPowerLossStorage}: namespace changes stay, bytes not {@code
 * hsync}ed go). Against a power loss only an {@code hsync} is durable, so the power-loss runs write
 * the log with {@code hbase.wal.hsync=true}: with HBase's default (acknowledged after {@code
 * hflush}) a power cut of every DataNode loses acknowledged edits, as it does in HBase.
 */
class HdfsCrashPointTest extends CrashPointTest {

  private static final AtomicInteger RUNS = new AtomicInteger();
  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);
  private static StorageLocation location;
  private static StorageLocation hsyncLocation;

  @BeforeAll
  static void resolve() throws IOException {
    location = hdfs.location("/crash-points", hdfs.config());
    hsyncLocation = hdfs.location("/crash-points", hdfs.config().with("hbase.wal.hsync", "true"));
  }

  @Override
  PowerCut powerCut(Path stash) throws IOException {
    return new HdfsPowerLossStorage(hdfs, hsyncLocation.storage(), true);
  }

  @Override
  Storage baseStorage() {
    return location.storage();
  }

  @Override
  Path runDirectory(String name) {
    return location.directory().resolve(name + "-" + RUNS.incrementAndGet());
  }

  @Override
  int stride() {
    return 25;
  }
}
