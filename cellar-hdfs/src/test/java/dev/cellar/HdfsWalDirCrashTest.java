package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CellarCrashTest} with the data and the log ({@code hbase.wal.dir}) on different file
 * systems, one MiniDFSCluster shared by both cases: a writer killed with SIGKILL, then the database
 * reopened with the same setting, which takes over (and on HDFS recovers the leases of) both
 * directories' locks and the log's last segment, and replays the log from where it lives: every
 * acknowledged row is found.
 */
class HdfsWalDirCrashTest {

  private static MiniHdfs hdfs;

  @BeforeAll
  static void start() throws Exception {
    hdfs = MiniHdfs.start(1);
  }

  @AfterAll
  static void stop() throws Exception {
    hdfs.close();
  }

  private static List<String> settingsWithLogIn(String logRoot) {
    List<String> settings = new ArrayList<>(hdfs.config().settings().asMap().entrySet().stream()
        .map(entry -> entry.getKey() + "=" + entry.getValue())
        .toList());
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
