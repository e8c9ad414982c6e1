package dev.cellar;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CellarCrashTest} with the log in another local directory ({@code hbase.wal.dir}): a writer
 * killed with SIGKILL, then the database reopened with the same setting, which replays the log from
 * there and finds every acknowledged row.
 */
class CellarWalDirCrashTest extends CellarCrashTest {

  @TempDir Path logRoot;

  @Override
  List<String> storageSettings() {
    return List.of(CellarConfig.WAL_DIR + "=" + logRoot);
  }
}
