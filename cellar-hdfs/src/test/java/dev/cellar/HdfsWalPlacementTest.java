package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.io.DirectoryLockedException;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log on another file system than the data ({@code hbase.wal.dir}) on a MiniDFSCluster, both
 * ways round, in one JVM: a second open fails cleanly on whichever directory is held, an open that
 * would miss the log fails in one line naming both URIs, and after a crash (an abort, nothing
 * flushed) the reopen with the right setting replays every edit from the other file system. Random
 * rows; the seed is printed and {@code -Dcellar.test.seed} repeats a run.
 */
@ExtendWith(TestSeedExtension.class)
class HdfsWalPlacementTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  @TempDir Path local;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CellarConfig config(String logRoot) {
    CellarConfig config = hdfs.config().with("hfile.block.cache.memory.size", "4m");
    return logRoot == null ? config : config.with(CellarConfig.WAL_DIR, logRoot);
  }

  @Test
  void dataOnHdfsLogLocal(TestSeed seed) throws IOException {
    crashAndReplay(
        hdfs.newDirectory("data"),
        local.resolve("logs").toString(),
        local.resolve("other").toString(),
        seed);
  }

  @Test
  void dataLocalLogOnHdfs(TestSeed seed) throws IOException {
    crashAndReplay(
        local.resolve("data").toString(),
        hdfs.newDirectory("logs"),
        hdfs.newDirectory("other"),
        seed);
  }

  private void crashAndReplay(String database, String logRoot, String otherDatabase, TestSeed seed)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    TreeMap<String, String> oracle = new TreeMap<>();
    Cellar cellar = Cellar.open(database, config(logRoot));
    try {
      DirectoryLockedException again =
          assertThrows(
              DirectoryLockedException.class, () -> Cellar.open(database, config(logRoot)));
      assertTrue(again.getMessage().contains(database), again.getMessage());
      IOException sharedLog =
          assertThrows(IOException.class, () -> Cellar.open(otherDatabase, config(logRoot)));
      assertTrue(
          sharedLog.getMessage().contains("is the log of the database"), sharedLog.getMessage());
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < 300; i++) {
        String row = String.format("row-%04d", random.nextInt(1000));
        String value = "v" + random.nextLong();
        cellar.table("t").put(new Put(bytes(row)).addColumn(FAMILY, QUALIFIER, bytes(value)));
        oracle.put(row, value);
      }
    } finally {
      cellar.abort();
    }
    IOException withoutLog =
        assertThrows(IOException.class, () -> Cellar.open(database, config(null)));
    assertTrue(withoutLog.getMessage().contains("its log lives in"), withoutLog.getMessage());
    try (Cellar reopened = Cellar.open(database, config(logRoot))) {
      TreeMap<String, String> found = new TreeMap<>();
      try (ResultScanner scanner = reopened.table("t").scanner(new Scan())) {
        for (Result result : scanner) {
          try (result) {
            found.put(
                new String(result.row(), StandardCharsets.UTF_8),
                new String(result.getValue(FAMILY, QUALIFIER), StandardCharsets.UTF_8));
          }
        }
      }
      assertEquals(oracle, found);
    }
  }
}
