package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link CellarCrashTest} on a MiniDFSCluster: a writer process on HDFS killed with SIGKILL, then
 * the database reopened, which recovers the dead writer's leases (its lock and its last log
 * segment) at once, since its process is gone, and finds every acknowledged row.
 */
class HdfsCellarCrashTest extends CellarCrashTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);
  private String location;

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
    return hdfs.settingsArguments();
  }
}
