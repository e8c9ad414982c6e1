package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.io.PowerCut;
import dev.cellar.io.PowerLossStorage;
import dev.cellar.io.Storage;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cuts the power before each file operation of a database's life in turn (open; create two tables,
 * the second pre-split into three regions; puts, deletes and flushes; drop one; a major compaction;
 * create it again; close), then reopens and compares every table with an oracle of what was
 * acknowledged: no acknowledged write lost, no deleted cell or dropped table back. A table create
 * or drop the power cut may have happened or not; if the table is there, it holds what it held (a
 * drop) or nothing (a create). Every tenth operation by default, from a seeded offset; {@code
 * -Dcellar.crash.allPoints=true} (through {@code -Dcellar.test.extraJvmArgs}) cuts at every one. A
 * subclass runs it on another storage with that storage's power-loss model ({@link #powerCut},
 * {@link #runDirectory}).
 */
@ExtendWith(TestSeedExtension.class)
class CellarPowerLossTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  @TempDir Path root;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The database's settings; a subclass adds its storage's. */
  CellarConfig config() {
    return CellarConfig.defaults()
        .with("hfile.block.cache.memory.size", "4m")
        .with("hbase.hstore.compaction.min", "100")
        .with("hbase.hstore.compaction.max", "100");
  }

  /**
   * A storage that loses power on command, keeping what it must put back under {@code stash} (a
   * local directory of the run's own): a local disk ({@link PowerLossStorage}) here.
   */
  PowerCut powerCut(Path stash) throws IOException {
    return new PowerLossStorage(stash);
  }

  /** The directory of the run {@code name}, on the storage {@link #powerCut} wraps. */
  Path runDirectory(String name) {
    return root.resolve(name);
  }

  /** Every how many operations a run cuts the power by default. */
  int stride() {
    return 10;
  }

  /** The storage a reopen reads through, after the power came back. */
  Storage baseStorage() {
    return Storage.local();
  }

  /** One run: the scenario over a power-loss storage, and what it acknowledged. */
  private final class Run {
    final Path directory;
    final PowerCut storage;
    final Map<String, TreeMap<String, String>> oracle = new HashMap<>();
    String inFlight;
    Cellar cellar;

    Run(Path directory, Path stash) throws IOException {
      this.directory = directory;
      this.storage = powerCut(stash);
    }

    void scenario() throws IOException {
      cellar = Cellar.open(directory, config(), storage.storage());
      create("a");
      put("a", 0, 30);
      cellar.admin().flush("a");
      create("b");
      put("b", 0, 20);
      delete("a", 0, 5);
      cellar.admin().flush("a");
      cellar.admin().flush("b");
      inFlight = "b";
      cellar.admin().dropTable("b");
      oracle.remove("b");
      inFlight = null;
      put("a", 30, 50);
      cellar.admin().majorCompact("a");
      create("b");
      put("b", 100, 110);
      cellar.admin().flush("b");
      cellar.close();
      cellar = null;
    }

    void create(String table) throws IOException {
      inFlight = table;
      TreeMap<String, String> before = oracle.put(table, new TreeMap<>());
      if (before != null) {
        throw new IllegalStateException(table + " exists");
      }
      // b is pre-split, so that its regions' directories, logs and drops are cut too
      byte[][] splits =
          table.equals("b") ? new byte[][] {bytes("row-0010"), bytes("row-0105")} : new byte[0][];
      cellar.admin().createTable(TableDescriptor.of(table, ColumnFamilyDescriptor.of("f")), splits);
      inFlight = null;
    }

    void put(String table, int from, int to) throws IOException {
      for (int i = from; i < to; i++) {
        String row = String.format("row-%04d", i);
        String value = table + i;
        cellar.table(table).put(new Put(bytes(row)).addColumn(FAMILY, QUALIFIER, bytes(value)));
        oracle.get(table).put(row, value);
      }
    }

    void delete(String table, int from, int to) throws IOException {
      for (int i = from; i < to; i++) {
        String row = String.format("row-%04d", i);
        cellar.table(table).delete(new Delete(bytes(row)).addFamily(FAMILY));
        oracle.get(table).remove(row);
      }
    }

    /** The crash: nothing more is flushed, and what was not forced is lost. */
    void crash() throws IOException {
      if (cellar != null) {
        cellar.abort();
        cellar = null;
      }
      storage.powerLoss();
    }

    void verify(String context) throws IOException {
      try (Cellar reopened = Cellar.open(directory, config(), baseStorage())) {
        for (String table : new String[] {"a", "b"}) {
          boolean exists = reopened.admin().tableExists(table);
          if (table.equals(inFlight)) {
            if (exists) {
              assertEquals(
                  oracle.get(table),
                  contents(reopened, table),
                  context + ": table " + table + ", created or dropped as the power went");
            }
          } else {
            assertEquals(
                oracle.containsKey(table),
                exists,
                context + ": table " + table + (exists ? " is back" : " is lost"));
            if (exists) {
              assertEquals(
                  oracle.get(table), contents(reopened, table), context + ": table " + table);
            }
          }
        }
      }
    }

    private static Map<String, String> contents(Cellar cellar, String table) throws IOException {
      Map<String, String> found = new TreeMap<>();
      try (ResultScanner scanner = cellar.table(table).scanner(new Scan())) {
        for (Result result : scanner) {
          try (result) {
            found.put(
                new String(result.row(), StandardCharsets.UTF_8),
                new String(result.getValue(FAMILY, QUALIFIER), StandardCharsets.UTF_8));
          }
        }
      }
      return found;
    }
  }

  @Test
  void noAcknowledgedWriteIsLostAndNoDeleteOrDropComesBackAfterAPowerLoss(TestSeed seed)
      throws Exception {
    Run clean = new Run(runDirectory("clean"), root.resolve("clean.stash"));
    clean.scenario();
    int operations = clean.storage.operations();
    clean.crash();
    clean.verify("without a power loss before the end");
    assertTrue(operations > 50, "the scenario made " + operations + " file operations");

    int stride = Boolean.getBoolean("cellar.crash.allPoints") ? 1 : stride();
    int first = (int) Math.floorMod(seed.value(), (long) stride);
    System.out.println(
        "CellarPowerLossTest: "
            + operations
            + " file operations, losing power"
            + " at every "
            + stride
            + "th from "
            + first
            + " (-Dcellar.crash.allPoints=true cuts at every one)");
    for (int cutAt = first; cutAt < operations; cutAt += stride) {
      Run run = new Run(runDirectory("cut-" + cutAt), root.resolve("cut-" + cutAt + ".stash"));
      run.storage.cutAt(cutAt);
      try {
        run.scenario();
      } catch (IOException e) {
        // the power went
      }
      run.crash();
      run.verify("power lost before file operation " + cutAt + " of " + operations);
    }
  }
}
