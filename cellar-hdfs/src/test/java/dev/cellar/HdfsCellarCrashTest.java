package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link CellarCrashTest} on a MiniDFSCluster: a writer process on HDFS killed with SIGKILL, then
 * the database reopened, which recovers the dead writer's leases (its lock and its last log
 * segment) at once, since its process is gone, and finds every acknowledged row.
 */
class HdfsCellarCrashTest extends CellarCrashTest {

  private static MiniHdfs hdfs;
  private String location;

  @BeforeAll
  static void start() throws Exception {
    hdfs = MiniHdfs.start(1);
  }

  @AfterAll
  static void stop() throws Exception {
    hdfs.close();
  }

  @BeforeEach
  void newDirectory() {
    location = hdfs.newDirectory("crash");
  }

  @Override
  String location() {
    return location;
  }

  @Override
  List<String> storageSettings() {
    return hdfs.config().settings().asMap().entrySet().stream()
        .map(entry -> entry.getKey() + "=" + entry.getValue())
        .toList();
  }
}
