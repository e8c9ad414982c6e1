package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CellarCrashTest} with the data and the log ({@code hbase.wal.dir}) on different file
 * systems, one MiniDFSCluster shared by both cases: a writer killed with SIGKILL, then the database
 * reopened with the same setting, which takes over (and on HDFS recovers the leases of) both
 * directories' locks and the log's last segment, and replays the log from where it lives: every
 * acknowledged row is found.
 */
class HdfsWalDirCrashTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static List<String> settingsWithLogIn(String logRoot) {
    List<String> settings = new ArrayList<>(hdfs.settingsArguments());
    settings.add(CellarConfig.WAL_DIR + "=" + logRoot);
    return settings;
  }

  /** The data on HDFS, the log on the local disk. */
  @Nested
  class DataOnHdfsLogLocal extends CellarCrashTest {

    @TempDir Path logRoot;
    private String location;

    @BeforeEach
    void newDirectory() {
      location = hdfs.newDirectory("data");
    }

    @Override
    String location() {
      return location;
    }

    @Override
    List<String> storageSettings() {
      return settingsWithLogIn(logRoot.toString());
    }
  }

  /** The data on the local disk, the log on HDFS. */
  @Nested
  class DataLocalLogOnHdfs extends CellarCrashTest {

    private String logRoot;

    @BeforeEach
    void newDirectory() {
      logRoot = hdfs.newDirectory("logs");
    }

    @Override
    List<String> storageSettings() {
      return settingsWithLogIn(logRoot);
    }
  }
}
