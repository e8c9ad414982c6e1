package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.io.PowerLossStorage;
import dev.cellar.io.Storage;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cuts the power before each file operation of a table's alters in turn (create with families a and
 * b; puts and a flush; add c; modify a; delete b; add b again; puts, flushes and a major
 * compaction; close), then reopens and compares every family with an oracle of what was
 * acknowledged: no acknowledged write lost, a deleted family's data never back (not even in a
 * family of the same name added later), and the alter the power cut either done or not, whole.
 * Every tenth operation by default, from a seeded offset; {@code -Dcellar.crash.allPoints=true}
 * (through {@code -Dcellar.test.extraJvmArgs}) cuts at every one.
 */
@ExtendWith(TestSeedExtension.class)
class AlterPowerLossTest {

  private static final byte[] QUALIFIER = bytes("q");
  private static final List<String> FAMILIES = List.of("a", "b", "c");

  @TempDir Path root;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CellarConfig config() {
    return CellarConfig.defaults()
        .with("hfile.block.cache.memory.size", "4m")
        .with("hbase.hstore.compaction.min", "100")
        .with("hbase.hstore.compaction.max", "100");
  }

  /** One run: the scenario over a power-loss storage, and what it acknowledged. */
  private static final class Run {
    final Path directory;
    final PowerLossStorage storage;

    /** Each family the table has, with its rows; a family the table lacks is absent. */
    final Map<String, TreeMap<String, String>> oracle = new TreeMap<>();

    /** The family of the alter under way, and its rows before and after (null: no family). */
    String altering;

    TreeMap<String, String> before;
    TreeMap<String, String> after;
    Cellar cellar;

    Run(Path directory, Path stash) throws IOException {
      this.directory = directory;
      this.storage = new PowerLossStorage(stash);
    }

    void scenario() throws IOException {
      cellar = Cellar.open(directory, config(), storage);
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      oracle.put("a", new TreeMap<>());
      oracle.put("b", new TreeMap<>());
      put("a", 0, 20);
      put("b", 0, 20);
      cellar.admin().flush("t");
      alter(
          "c",
          new TreeMap<>(),
          () -> cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("c")));
      put("c", 0, 10);
      put("b", 20, 25);
      alter(
          "a",
          oracle.get("a"),
          () ->
              cellar
                  .admin()
                  .modifyFamily(
                      "t",
                      ColumnFamilyDescriptor.of(
                          "a", Map.of("VERSIONS", "3", "COMPRESSION", "GZ"))));
      alter("b", null, () -> cellar.admin().deleteFamily("t", "b"));
      put("a", 20, 40);
      cellar.admin().flush("t");
      alter(
          "b",
          new TreeMap<>(),
          () -> cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("b")));
      put("b", 100, 105);
      cellar.admin().flush("t");
      cellar.admin().majorCompact("t");
      cellar.close();
      cellar = null;
    }

    private interface Alter {
      void run() throws IOException;
    }

    /** Runs an alter of {@code family} that leaves it with {@code rows} (null: deleted). */
    void alter(String family, TreeMap<String, String> rows, Alter alter) throws IOException {
      altering = family;
      before = oracle.get(family);
      after = rows;
      alter.run();
      if (rows == null) {
        oracle.remove(family);
      } else {
        oracle.put(family, rows);
      }
      altering = null;
    }

    void put(String family, int from, int to) throws IOException {
      for (int i = from; i < to; i++) {
        String row = String.format("row-%04d", i);
        String value = family + i;
        cellar
            .table("t")
            .put(new Put(bytes(row)).addColumn(bytes(family), QUALIFIER, bytes(value)));
        oracle.get(family).put(row, value);
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
      try (Cellar reopened = Cellar.open(directory, config(), Storage.local())) {
        if (!reopened.admin().tableExists("t")) {
          assertTrue(oracle.isEmpty(), context + ": table t is lost");
          return;
        }
        TableDescriptor described = reopened.admin().describe("t");
        if (oracle.isEmpty()) {
          for (ColumnFamilyDescriptor family : described.families()) {
            assertEquals(
                Map.of(),
                contents(reopened, family.name()),
                context + ": family " + family.name() + " of a table created as the power went");
          }
          return;
        }
        for (String family : FAMILIES) {
          TreeMap<String, String> found =
              described.family(family) == null ? null : contents(reopened, family);
          if (family.equals(altering)) {
            assertTrue(
                Objects.equals(found, before) || Objects.equals(found, after),
                context
                    + ": family "
                    + family
                    + ", altered as the power went, holds "
                    + found
                    + "; expected "
                    + before
                    + " (before) or "
                    + after
                    + " (after)");
          } else {
            assertEquals(oracle.get(family), found, context + ": family " + family);
          }
        }
        reopened.admin().majorCompact("t");
      }
    }

    private static TreeMap<String, String> contents(Cellar cellar, String family)
        throws IOException {
      TreeMap<String, String> found = new TreeMap<>();
      try (ResultScanner scanner = cellar.table("t").scanner(new Scan().addFamily(bytes(family)))) {
        for (Result result : scanner) {
          try (result) {
            found.put(
                new String(result.row(), StandardCharsets.UTF_8),
                new String(result.getValue(bytes(family), QUALIFIER), StandardCharsets.UTF_8));
          }
        }
      }
      return found;
    }
  }

  @Test
  void noAcknowledgedWriteIsLostAndNoDeletedFamilyComesBackAfterAPowerLoss(TestSeed seed)
      throws Exception {
    Run clean = new Run(root.resolve("clean"), root.resolve("clean.stash"));
    clean.scenario();
    int operations = clean.storage.operations();
    clean.crash();
    clean.verify("without a power loss before the end");
    assertTrue(operations > 50, "the scenario made " + operations + " file operations");

    int stride = Boolean.getBoolean("cellar.crash.allPoints") ? 1 : 10;
    int first = (int) Math.floorMod(seed.value(), (long) stride);
    System.out.println(
        "AlterPowerLossTest: "
            + operations
            + " file operations, losing power"
            + " at every "
            + stride
            + "th from "
            + first
            + " (-Dcellar.crash.allPoints=true cuts at every one)");
    for (int cutAt = first; cutAt < operations; cutAt += stride) {
      Run run = new Run(root.resolve("cut-" + cutAt), root.resolve("cut-" + cutAt + ".stash"));
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
