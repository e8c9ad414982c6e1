package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.io.DirectoryLockedException;
import dev.cellar.store.wal.WalLayout;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log in another directory ({@code hbase.wal.dir}, a local one here; {@code cellar-hdfs} runs
 * the same with HDFS on either side): edits survive a crash and are replayed from there, both
 * directories are locked, HBase's placement rule holds, and every open that would miss or mistake
 * the log fails in one line without changing what is stored. Random rows and values; the seed is
 * printed and {@code -Dcellar.test.seed} repeats a run.
 */
@ExtendWith(TestSeedExtension.class)
class WalPlacementTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  @TempDir Path base;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private Path database() {
    return base.resolve("db");
  }

  private Path logRoot() {
    return base.resolve("logs");
  }

  private static CellarConfig config(Path logRoot) {
    CellarConfig config = CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m");
    return logRoot == null ? config : config.with(CellarConfig.WAL_DIR, logRoot.toString());
  }

  /** Writes random rows into table "t" (created if missing), recording them in {@code oracle}. */
  private static void write(
      Cellar cellar, TreeMap<String, String> oracle, SplittableRandom random, int rows)
      throws IOException {
    if (!cellar.admin().tableExists("t")) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    }
    for (int i = 0; i < rows; i++) {
      String row = String.format("row-%05d", random.nextInt(2000));
      String value = "v" + random.nextLong();
      cellar.table("t").put(new Put(bytes(row)).addColumn(FAMILY, QUALIFIER, bytes(value)));
      oracle.put(row, value);
    }
  }

  private static void verify(Cellar cellar, TreeMap<String, String> oracle, String context)
      throws IOException {
    if (oracle.isEmpty() && !cellar.admin().tableExists("t")) {
      return;
    }
    TreeMap<String, String> found = new TreeMap<>();
    try (ResultScanner scanner = cellar.table("t").scanner(new Scan())) {
      for (Result result : scanner) {
        try (result) {
          found.put(
              new String(result.row(), StandardCharsets.UTF_8),
              new String(result.getValue(FAMILY, QUALIFIER), StandardCharsets.UTF_8));
        }
      }
    }
    assertEquals(oracle, found, context);
  }

  private static long segments(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(file -> WalLayout.parseFileName(file.getFileName().toString()) >= 0)
          .count();
    }
  }

  @Test
  void editsLoggedElsewhereSurviveACrashAndAreReplayedFromThere(TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    TreeMap<String, String> oracle = new TreeMap<>();
    for (int round = 0; round < 3; round++) {
      Cellar cellar = Cellar.open(database(), config(logRoot()));
      verify(cellar, oracle, "round " + round + ", after reopening");
      write(cellar, oracle, random, 200 + random.nextInt(300));
      if (random.nextBoolean()) {
        cellar.admin().flush("t");
        write(cellar, oracle, random, 50);
      }
      assertTrue(segments(logRoot().resolve("wal")) > 0, "the log is in hbase.wal.dir/wal");
      assertEquals(0, segments(database().resolve("wal")), "and not in the database");
      cellar.abort();
    }
    try (Cellar cellar = Cellar.open(database(), config(logRoot()))) {
      verify(cellar, oracle, "last reopen");
    }
    assertEquals(
        "file:" + logRoot().resolve("wal"),
        Files.readString(database().resolve(WalPlacement.LOCATION_FILE)));
    assertEquals(
        "file:" + database(),
        Files.readString(logRoot().resolve("wal").resolve(WalLayout.OWNER_FILE)));
  }

  @Test
  void bothDirectoriesAreLockedWhileTheDatabaseIsOpen() throws IOException {
    try (Cellar first = Cellar.open(database(), config(logRoot()))) {
      DirectoryLockedException again =
          assertThrows(
              DirectoryLockedException.class, () -> Cellar.open(database(), config(logRoot())));
      assertTrue(again.getMessage().contains(database().toString()), again.getMessage());
      IOException sharedLog =
          assertThrows(
              IOException.class, () -> Cellar.open(base.resolve("other"), config(logRoot())));
      assertTrue(
          sharedLog.getMessage().contains(logRoot().resolve("wal") + " is the log of"),
          sharedLog.getMessage());
      Files.delete(logRoot().resolve("wal").resolve(WalLayout.OWNER_FILE));
      DirectoryLockedException lockedLog =
          assertThrows(
              DirectoryLockedException.class,
              () -> Cellar.open(base.resolve("other"), config(logRoot())),
              "without the owner file, the log's own lock still keeps a second database out");
      assertTrue(
          lockedLog.getMessage().contains(logRoot().resolve("wal").toString()),
          lockedLog.getMessage());
      write(first, new TreeMap<>(), new SplittableRandom(1), 10);
    }
  }

  @Test
  void anOpenThatWouldMissOrMistakeTheLogFailsAndChangesNothing() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    Cellar cellar = Cellar.open(database(), config(logRoot()));
    write(cellar, oracle, new SplittableRandom(7), 100);
    cellar.abort();

    IOException withoutLog =
        assertThrows(IOException.class, () -> Cellar.open(database(), config(null)));
    assertTrue(
        withoutLog.getMessage().contains(WalPlacement.LOCATION_FILE)
            && withoutLog.getMessage().contains(logRoot().resolve("wal").toString()),
        withoutLog.getMessage());
    IOException otherLog =
        assertThrows(
            IOException.class, () -> Cellar.open(database(), config(base.resolve("elsewhere"))));
    assertTrue(otherLog.getMessage().contains("its log lives in"), otherLog.getMessage());
    IOException sharedLog =
        assertThrows(
            IOException.class, () -> Cellar.open(base.resolve("other"), config(logRoot())));
    assertTrue(
        sharedLog.getMessage().contains("is the log of the database"), sharedLog.getMessage());

    try (Cellar reopened = Cellar.open(database(), config(logRoot()))) {
      verify(reopened, oracle, "after the refused opens");
    }
  }

  @Test
  void aCrashedDatabaseWithItsOwnLogRefusesALogElsewhere() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    Cellar cellar = Cellar.open(database(), config(null));
    write(cellar, oracle, new SplittableRandom(11), 100);
    cellar.abort();

    IOException refused =
        assertThrows(IOException.class, () -> Cellar.open(database(), config(logRoot())));
    assertTrue(
        refused.getMessage().contains("log segment(s) of this database"), refused.getMessage());
    assertFalse(Files.exists(database().resolve(WalPlacement.LOCATION_FILE)));
    try (Cellar reopened = Cellar.open(database(), config(null))) {
      verify(reopened, oracle, "the database's own log, replayed");
    }
  }

  @Test
  void aLostLogIsNoticedFromTheTablesFiles() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    try (Cellar cellar = Cellar.open(database(), config(logRoot()))) {
      write(cellar, oracle, new SplittableRandom(5), 100);
    }
    try (Stream<Path> files = Files.list(logRoot().resolve("wal"))) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    IOException refused =
        assertThrows(IOException.class, () -> Cellar.open(database(), config(logRoot())));
    assertTrue(
        refused.getMessage().contains("or is not this database's log"), refused.getMessage());
  }

  @Test
  void theLogMayNotLieInsideTheDatabaseButMayBeTheDatabaseDirectoryItself() throws IOException {
    IOException inside =
        assertThrows(
            IOException.class, () -> Cellar.open(database(), config(database().resolve("logs"))));
    assertTrue(
        inside.getMessage().contains("lies inside the database directory"), inside.getMessage());
    IOException databaseInLog =
        assertThrows(
            IOException.class,
            () -> Cellar.open(logRoot().resolve("wal").resolve("db"), config(logRoot())));
    assertTrue(
        databaseInLog.getMessage().contains("lies inside the log's directory"),
        databaseInLog.getMessage());

    TreeMap<String, String> oracle = new TreeMap<>();
    try (Cellar cellar = Cellar.open(database(), config(database()))) {
      write(cellar, oracle, new SplittableRandom(3), 20);
    }
    assertTrue(segments(database().resolve("wal")) > 0);
    assertFalse(Files.exists(database().resolve(WalPlacement.LOCATION_FILE)));
    try (Cellar cellar = Cellar.open(database(), config(null))) {
      verify(cellar, oracle, "the same database without the setting");
    }
  }

  @Test
  void aSiteFileNamesBothDirectoriesAsHBasesDoes() throws IOException {
    Path site = base.resolve("hbase-site.xml");
    Files.writeString(
        site,
        "<configuration>\n"
            + "<property><name>hbase.rootdir</name><value>"
            + database()
            + "</value></property>\n"
            + "<property><name>hbase.wal.dir</name><value>"
            + logRoot()
            + "</value></property>\n"
            + "<property><name>hfile.block.cache.memory.size</name><value>4m</value></property>\n"
            + "</configuration>\n");
    CellarConfig config = CellarConfig.load(site);
    TreeMap<String, String> oracle = new TreeMap<>();
    Cellar cellar = Cellar.open(config);
    write(cellar, oracle, new SplittableRandom(13), 50);
    cellar.abort();
    assertTrue(segments(logRoot().resolve("wal")) > 0);
    try (Cellar reopened = Cellar.open(config)) {
      verify(reopened, oracle, "reopened from the site file");
    }
    IllegalArgumentException noRoot =
        assertThrows(IllegalArgumentException.class, () -> Cellar.open(CellarConfig.defaults()));
    assertTrue(noRoot.getMessage().contains("hbase.rootdir"), noRoot.getMessage());
  }
}
