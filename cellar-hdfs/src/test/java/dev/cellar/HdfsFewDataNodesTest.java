package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A one-DataNode cluster opened with the client's default {@code dfs.replication} (3), as on a
 * development machine whose site files do not lower it: every block goes to the one DataNode there
 * is, and no open reopens a block already written (which would ask for two more DataNodes), so a
 * database opens, reopens and writes there as on a larger cluster.
 */
class HdfsFewDataNodesTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  /** Hadoop's default {@code dfs.replication}, which the site files here leave as it is. */
  private static final String DEFAULT_REPLICATION = "3";

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The cluster's client settings, but Hadoop's default replication. */
  private static CellarConfig defaultReplication() {
    return hdfs.config().with("dfs.replication", DEFAULT_REPLICATION);
  }

  private static void put(Cellar cellar, String row) throws Exception {
    cellar.table("t").put(new Put(bytes(row)).addColumn(FAMILY, QUALIFIER, bytes("v-" + row)));
  }

  private static void assertRow(Cellar cellar, String row) throws Exception {
    try (Result result = cellar.table("t").get(new Get(bytes(row)))) {
      assertArrayEquals(bytes("v-" + row), result.getValue(FAMILY, QUALIFIER), row);
    }
  }

  /**
   * Each open writes a row through the log and stops as a crash would (no flush), so the next open
   * finds every row only by replaying the log.
   */
  @Test
  void reopensAgainAndAgainAndEveryRowWrittenThroughTheLogSurvives() throws Exception {
    String location = hdfs.newDirectory("default-replication");
    Cellar first = Cellar.open(location, defaultReplication());
    first.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    put(first, "flushed");
    first.admin().flush("t");
    put(first, "logged-0");
    first.abort();
    int reopens = 4;
    for (int open = 1; open <= reopens; open++) {
      Cellar cellar = Cellar.open(location, defaultReplication());
      try {
        assertRow(cellar, "flushed");
        for (int earlier = 0; earlier < open; earlier++) {
          assertRow(cellar, "logged-" + earlier);
        }
        put(cellar, "logged-" + open);
      } finally {
        cellar.abort();
      }
    }
    try (Cellar cellar = Cellar.open(location, defaultReplication())) {
      for (int open = 0; open <= reopens; open++) {
        assertRow(cellar, "logged-" + open);
      }
    }
  }

  @Test
  void eachLockFileKeepsOneBlockNamingItsLastHolder() throws Exception {
    String location = hdfs.newDirectory("lock-blocks");
    for (int open = 0; open < 3; open++) {
      Cellar.open(location, defaultReplication()).close();
    }
    FileSystem fs = hdfs.cluster().getFileSystem();
    for (String lock : new String[] {"/LOCK", "/wal/LOCK"}) {
      Path file = new Path(URI.create(location + lock));
      FileStatus status = fs.getFileStatus(file);
      assertEquals(1, fs.getFileBlockLocations(status, 0, status.getLen()).length, lock);
      String text;
      try (FSDataInputStream in = fs.open(file)) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
      }
      assertEquals(1, text.lines().count(), text);
      assertTrue(text.startsWith("pid " + ProcessHandle.current().pid() + " on "), text);
    }
  }

  /**
   * {@link CellarCrashTest} on this cluster: a writer killed with SIGKILL again and again, each
   * reopen recovering the dead writer's leases (its locks, its last log segment) and taking its
   * locks over before the next writer writes through the log.
   */
  @Nested
  class KilledWriter extends CellarCrashTest {

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
      List<String> settings = new ArrayList<>(hdfs.settingsArguments());
      settings.add("dfs.replication=" + DEFAULT_REPLICATION);
      return settings;
    }
  }
}
