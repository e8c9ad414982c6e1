package dev.cellar;

import static dev.cellar.BulkFixtures.bytes;
import static dev.cellar.BulkFixtures.dump;
import static dev.cellar.BulkFixtures.tableFiles;
import static dev.cellar.BulkFixtures.writeHFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.io.FaultyStorage;
import dev.cellar.io.PowerLossStorage;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BulkLoad}: HBase's {@code completebulkload} semantics (layout, skipped names, table
 * creation, sequence ids), copy and move, every kind of bad input refused with one line and the
 * table unchanged, and a crash at each file operation leaving every file in or none.
 */
class BulkLoadTest {

  @TempDir Path root;

  private Cellar open(Path directory) throws IOException {
    return Cellar.open(directory, CellarConfig.defaults());
  }

  @Test
  void loadsHBasesLayoutSkippingWhatHBasesToolSkips() throws IOException {
    Path dir = root.resolve("bulk");
    writeHFile(dir.resolve("a/0123abcd"), "a", "r", 100, "plain");
    writeHFile(dir.resolve("a/89ef_SeqId_42_"), "a", "s", 50, "named");
    writeHFile(dir.resolve("b/feed"), "b", "r", 10, "b");
    writeHFile(dir.resolve("a/_SUCCESS"), "a", "x", 1, "skipped");
    writeHFile(dir.resolve("a/.0123abcd.crc"), "a", "x", 1, "skipped");
    writeHFile(dir.resolve("a/0123abcd.5e1f00"), "a", "x", 1, "a reference");
    writeHFile(dir.resolve("_logs/f"), "_logs", "x", 1, "skipped");
    writeHFile(dir.resolve(".tmp/f"), "tmp", "x", 1, "skipped");
    Files.createDirectories(dir.resolve("recovered.edits"));
    Files.writeString(dir.resolve("recovered.edits/0000001"), "not an HFile");
    Files.writeString(dir.resolve(".regioninfo"), "not a directory");
    List<String> progress = new ArrayList<>();
    try (Cellar cellar = open(root.resolve("db"))) {
      BulkLoad.Report report = BulkLoad.load(cellar, "t", dir, false, progress::add);
      assertTrue(report.created());
      assertEquals(Map.of("a", 2, "b", 1), report.files());
      assertEquals(160, report.cells());
      List<String> cells = dump(cellar.table("t"));
      assertEquals(160, cells.size());
      assertTrue(
          cells.getFirst().equals("r00000/a:q/100/PUT=plain tags \\x00\\x07\\x07r00000"),
          cells.getFirst());
      assertEquals(
          List.of("a", "b"),
          cellar.admin().describe("t").families().stream()
              .map(ColumnFamilyDescriptor::name)
              .toList());
      assertEquals(1, cellar.admin().describe("t").family("a").maxVersions());
    }
    assertTrue(progress.stream().anyMatch(line -> line.contains("reference")), progress::toString);
    assertTrue(Files.exists(dir.resolve("a/0123abcd")), "copied, not moved");
    for (List<String> names : tableFiles(root.resolve("db"), "t").values()) {
      for (String name : names) {
        assertTrue(
            name.startsWith(".")
                || name.equals("MANIFEST")
                || name.matches("[0-9a-f]{32}_SeqId_[0-9]+_"),
            name);
      }
    }
  }

  @Test
  void loadedCellsAreNewerThanEarlierWritesAndOlderThanLaterOnes() throws IOException {
    Path dir = root.resolve("bulk");
    writeHFile(dir.resolve("f/1"), "f", "r", 3, "loaded");
    Get get = new Get(bytes("r00001"));
    try (Cellar cellar = open(root.resolve("db"))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      table.put(new Put(bytes("r00001")).addColumn(bytes("f"), bytes("q"), 100, bytes("older")));
      table.put(new Put(bytes("r00002")).addColumn(bytes("f"), bytes("q"), 100, bytes("older")));
      cellar.admin().flush("t");
      table.put(new Put(bytes("r00002")).addColumn(bytes("f"), bytes("q"), 100, bytes("mem")));
      BulkLoad.load(cellar, "t", dir, false, line -> {});
      assertEquals("loaded", value(table, get));
      assertEquals("loaded", value(table, new Get(bytes("r00002"))));
      table.put(new Put(bytes("r00001")).addColumn(bytes("f"), bytes("q"), 100, bytes("newer")));
      assertEquals("newer", value(table, get));
      cellar.admin().flush("t");
      assertEquals("newer", value(table, get));
    }
    try (Cellar cellar = open(root.resolve("db"))) {
      assertEquals("newer", value(cellar.table("t"), get));
      assertEquals("loaded", value(cellar.table("t"), new Get(bytes("r00002"))));
      cellar.admin().majorCompact("t");
      assertEquals("newer", value(cellar.table("t"), get));
      assertEquals("loaded", value(cellar.table("t"), new Get(bytes("r00002"))));
    }
  }

  private static String value(Table table, Get get) throws IOException {
    try (Result result = table.get(get)) {
      return new String(result.getValue(bytes("f"), bytes("q")));
    }
  }

  /**
   * Readers racing a load (scans and gets over both families) see all its files or none, and a
   * writer racing it loses nothing.
   */
  @Test
  void racingReadsSeeTheWholeLoadOrNoneAndRacingWritesStay() throws Exception {
    Path dir = root.resolve("bulk");
    writeHFile(dir.resolve("a/1"), "a", "r", 200, "loaded");
    writeHFile(dir.resolve("b/1"), "b", "r", 200, "loaded");
    try (Cellar cellar = open(root.resolve("db"))) {
      for (int round = 0; round < 10; round++) {
        String name = "t" + round;
        cellar
            .admin()
            .createTable(
                TableDescriptor.of(
                    name, ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
        Table table = cellar.table(name);
        AtomicBoolean stop = new AtomicBoolean();
        List<String> partial = new CopyOnWriteArrayList<>();
        AtomicInteger written = new AtomicInteger();
        Thread reader =
            Thread.ofPlatform()
                .name("bulk-test-reader")
                .start(
                    () -> {
                      try {
                        while (!stop.get()) {
                          long scanned =
                              dump(table).stream()
                                  .filter(line -> line.contains("=loaded "))
                                  .count();
                          if (scanned != 0 && scanned != 400) {
                            partial.add("scan saw " + scanned);
                          }
                          try (Result result = table.get(new Get(bytes("r00007")))) {
                            if (result.size() == 1) {
                              partial.add("get saw one family");
                            }
                          }
                        }
                      } catch (IOException e) {
                        partial.add(e.toString());
                      }
                    });
        Thread writer =
            Thread.ofPlatform()
                .name("bulk-test-writer")
                .start(
                    () -> {
                      try {
                        while (!stop.get()) {
                          table.put(
                              new Put(bytes("w" + written.get()))
                                  .addColumn(bytes("a"), bytes("q"), bytes("w")));
                          written.incrementAndGet();
                        }
                      } catch (IOException e) {
                        partial.add(e.toString());
                      }
                    });
        BulkLoad.load(cellar, name, dir, false, line -> {});
        stop.set(true);
        reader.join();
        writer.join();
        assertEquals(List.of(), partial, "round " + round);
        List<String> cells = dump(table);
        assertEquals(400, cells.stream().filter(line -> line.contains("=loaded ")).count());
        assertEquals(written.get(), cells.stream().filter(line -> line.endsWith("=w")).count());
      }
    }
  }

  @Test
  void moveTakesTheSourcesAndCopyLeavesThem() throws IOException {
    Path copied = root.resolve("copied");
    Path moved = root.resolve("moved");
    writeHFile(copied.resolve("f/1"), "f", "r", 10, "v");
    writeHFile(moved.resolve("f/1"), "f", "s", 10, "v");
    try (Cellar cellar = open(root.resolve("db"))) {
      BulkLoad.load(cellar, "t", copied, false, line -> {});
      BulkLoad.load(cellar, "t", moved, true, line -> {});
      assertEquals(20, dump(cellar.table("t")).size());
    }
    assertTrue(Files.exists(copied.resolve("f/1")));
    assertFalse(Files.exists(moved.resolve("f/1")));
  }

  /** A bad input and the words its one-line error must hold. */
  private record BadInput(String name, String expected) {}

  @Test
  void badInputIsOneLineAndLeavesTheTableAsItWas() throws IOException {
    Path db = root.resolve("db");
    List<BadInput> inputs = new ArrayList<>();
    Path corrupt = root.resolve("corrupt");
    writeHFile(corrupt.resolve("f/good"), "f", "r", 10, "v");
    BulkFixtures.flipBitInFirstBlock(writeHFile(corrupt.resolve("f/z-bad"), "f", "s", 200, "v"));
    inputs.add(new BadInput("corrupt", "z-bad: corrupt HFile"));
    Path unknown = root.resolve("unknown");
    writeHFile(unknown.resolve("f/good"), "f", "r", 10, "v");
    writeHFile(unknown.resolve("g/1"), "g", "r", 10, "v");
    inputs.add(new BadInput("unknown", "has no family 'g'"));
    Path empty = root.resolve("empty");
    Files.createDirectories(empty.resolve("f"));
    writeHFile(empty.resolve("f/_SUCCESS"), "f", "r", 1, "v");
    inputs.add(new BadInput("empty", "no HFiles to load"));
    Path order = root.resolve("order");
    BulkFixtures.writeOutOfOrderHFile(order.resolve("f/1"), "f");
    inputs.add(new BadInput("order", "cell order"));
    Path text = root.resolve("text");
    Files.createDirectories(text.resolve("f"));
    Files.writeString(text.resolve("f/notes"), "these are not the cells you are looking for\n");
    inputs.add(new BadInput("text", "notes: not an HFile"));
    Path family = root.resolve("family");
    writeHFile(family.resolve("f/1"), "g", "r", 10, "v");
    inputs.add(new BadInput("family", "not of its directory's family 'f'"));
    inputs.add(new BadInput("missing", "not a directory"));

    try (Cellar cellar = open(db)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      cellar.table("t").put(new Put(bytes("x")).addColumn(bytes("f"), bytes("q"), bytes("1")));
      cellar.admin().flush("t");
      cellar.table("t").put(new Put(bytes("y")).addColumn(bytes("f"), bytes("q"), bytes("2")));
      List<String> cells = dump(cellar.table("t"));
      TreeMap<String, List<String>> files = tableFiles(db, "t");
      for (BadInput input : inputs) {
        for (String table : input.name().equals("unknown") ? List.of("t") : List.of("t", "new")) {
          BulkLoadException e =
              assertThrows(
                  BulkLoadException.class,
                  () -> BulkLoad.load(cellar, table, root.resolve(input.name()), true, line -> {}),
                  input.name());
          assertTrue(
              e.getMessage().contains(input.expected()), input.name() + ": " + e.getMessage());
          assertFalse(e.getMessage().contains("\n"), e.getMessage());
          assertEquals(cells, dump(cellar.table("t")), input.name());
          assertEquals(files, tableFiles(db, "t"), input.name());
          assertFalse(cellar.admin().tableExists("new"), input.name());
        }
      }
      assertTrue(Files.exists(corrupt.resolve("f/good")), "a refused move keeps its sources");
    }
  }

  /** What a load's file operations go through, and how a run comes back from its crash. */
  private interface CrashableStorage {
    Storage storage();

    int operations();

    /** Makes operation {@code index} the crash point. */
    void crashAt(int index);

    /** After the crash, before reopening: what the crash leaves behind. */
    void afterCrash() throws IOException;
  }

  private CrashableStorage crashable(boolean powerLoss, Path stash) throws IOException {
    if (powerLoss) {
      PowerLossStorage storage = new PowerLossStorage(stash);
      return new CrashableStorage() {
        public Storage storage() {
          return storage;
        }

        public int operations() {
          return storage.operations();
        }

        public void crashAt(int index) {
          storage.cutAt(index);
        }

        public void afterCrash() throws IOException {
          storage.powerLoss();
        }
      };
    }
    FaultyStorage storage = new FaultyStorage(Storage.local());
    return new CrashableStorage() {
      public Storage storage() {
        return storage;
      }

      public int operations() {
        return storage.operations();
      }

      public void crashAt(int index) {
        storage.failAt(index);
      }

      public void afterCrash() {
        storage.heal();
      }
    };
  }

  /**
   * Crashes at each file operation of a load in turn, either failing the operation (what was
   * written stays) or cutting the power just before it (what was not forced is lost), stops as a
   * crash would and reopens: every loaded file is in the table or none is, the cells written before
   * are all there, a load that returned is whole, and the files it moves are still at their sources
   * if they are not in the table.
   */
  @ParameterizedTest(name = "power loss {0}")
  @ValueSource(booleans = {false, true})
  void aCrashAtAnyFileOperationLeavesEveryFileInOrNone(boolean powerLoss) throws IOException {
    int operations = -1;
    for (int point = 0; operations < 0 || point < operations; point++) {
      String run = operations < 0 ? "count" : Integer.toString(point);
      Path db = root.resolve("db-" + run);
      Path source = root.resolve("bulk-" + run);
      List<Path> sources =
          List.of(
              writeHFile(source.resolve("a/1"), "a", "r", 20, "loaded"),
              writeHFile(source.resolve("a/2"), "a", "s", 20, "loaded"),
              writeHFile(source.resolve("b/1"), "b", "r", 20, "loaded"));
      CrashableStorage storage = crashable(powerLoss, root.resolve("stash-" + point));
      Cellar cellar = Cellar.open(db, CellarConfig.defaults(), storage.storage());
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      for (int i = 0; i < 10; i++) {
        cellar
            .table("t")
            .put(new Put(bytes("w" + i)).addColumn(bytes("a"), bytes("q"), bytes("w")));
      }
      int start = storage.operations();
      boolean crashed = false;
      if (operations >= 0) {
        storage.crashAt(start + point);
      }
      try {
        BulkLoad.load(cellar, "t", source, true, line -> {});
      } catch (IOException | RuntimeException e) {
        crashed = true;
      }
      if (operations < 0) {
        operations = storage.operations() - start;
        assertTrue(operations > 10, operations + " operations");
        point = -1;
        cellar.close();
        continue;
      }
      cellar.abort();
      storage.afterCrash();
      try (Cellar reopened = open(db)) {
        List<String> cells = dump(reopened.table("t"));
        long loaded = cells.stream().filter(line -> line.contains("=loaded ")).count();
        assertTrue(
            loaded == 0 || loaded == 60,
            "point " + point + " (crashed " + crashed + "): " + loaded + " loaded cells");
        assertEquals(
            10, cells.stream().filter(line -> line.contains("=w")).count(), "point " + point);
        if (!crashed) {
          assertEquals(60, loaded, "point " + point);
        }
        if (loaded == 0) {
          assertTrue(
              sources.stream().allMatch(Files::isRegularFile),
              "point " + point + ": a moved source is lost");
        }
      }
    }
  }
}
