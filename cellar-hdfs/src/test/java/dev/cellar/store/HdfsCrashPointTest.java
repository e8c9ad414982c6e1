package dev.cellar.store;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link CrashPointTest} with the table and its log on a MiniDFSCluster: a failure injected at
 * every file operation of open, flushes, compactions and close on HDFS. (Its power-loss half needs
 * a local disk and is skipped.)
 */
class HdfsCrashPointTest extends CrashPointTest {

  private static final AtomicInteger RUNS = new AtomicInteger();
  private static MiniHdfs hdfs;
  private static StorageLocation location;

  @BeforeAll
  static void start() throws Exception {
    hdfs = MiniHdfs.start(1);
    location = StorageLocation.resolve(hdfs.uri("/crash-points"), hdfs.config().settings());
  }

  @AfterAll
  static void stop() throws Exception {
    location.close();
    hdfs.close();
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
  boolean simulatesPowerLoss() {
    return false;
  }

  @Override
  int stride() {
    return 25;
  }
}
