package dev.cellar;

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
 * {@link CellarPowerLossTest} on a MiniDFSCluster: a power loss of the whole cluster before each
 * file operation of a database's life on HDFS ({@link HdfsPowerLossStorage}: namespace changes
 * stay, bytes not {@code hsync}ed go), then a reopen compared with the oracle. The log is written
 * with {@code hbase.wal.hsync=true}, the setting under which HBase's acknowledgement survives a
 * power loss of every DataNode (its default, {@code hflush}, survives the loss of the writer or of
 * some DataNodes, not of all).
 */
class HdfsCellarPowerLossTest extends CellarPowerLossTest {

  private static final AtomicInteger RUNS = new AtomicInteger();
  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);
  private static StorageLocation location;

  @BeforeAll
  static void resolve() throws IOException {
    location = hdfs.location("/power-loss", hdfs.config().with("hbase.wal.hsync", "true"));
  }

  @Override
  CellarConfig config() {
    return super.config().withAll(hdfs.config().with("hbase.wal.hsync", "true").settings().asMap());
  }

  @Override
  PowerCut powerCut(Path stash) throws IOException {
    return new HdfsPowerLossStorage(hdfs, location.storage(), true);
  }

  @Override
  Path runDirectory(String name) {
    return location.directory().resolve(name + "-" + RUNS.incrementAndGet());
  }

  @Override
  Storage baseStorage() {
    return location.storage();
  }

  @Override
  int stride() {
    return 25;
  }
}
