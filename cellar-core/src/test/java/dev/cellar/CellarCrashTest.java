package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process writing with SYNC_WAL at random points (SIGKILL), several times over the same
 * database, and reopens it each time: every acknowledged row is there with both its columns, and no
 * row is half there; the rows present are contiguous, so no batch of the writer's is half there
 * either (the table is split into three regions: a batch across a boundary is written region by
 * region in key order, so what a kill leaves of it is its first rows). CI runs a few rounds; {@code
 * -Dcellar.crash.rounds=N} (through {@code -Dcellar.test.extraJvmArgs}) runs more. A subclass runs
 * it on another storage by overriding {@link #location()} and {@link #storageSettings()}.
 */
@ExtendWith(TestSeedExtension.class)
class CellarCrashTest {

  static final byte[] FAMILY = "f".getBytes();
  static final byte[] FIRST = "first".getBytes();
  static final byte[] SECOND = "second".getBytes();

  @TempDir Path directory;

  static CellarConfig config() {
    return CellarConfig.defaults()
        .with("hbase.hregion.memstore.flush.size", "65536")
        .with("hbase.hstore.compaction.min", "2")
        .with("hfile.block.cache.memory.size", "4m");
  }

  static byte[] row(int i) {
    return String.format("%026d", i).getBytes();
  }

  static byte[] value(int i, byte[] column) {
    return ("value of " + i + " " + new String(column) + " " + "z".repeat(i % 300)).getBytes();
  }

  /** Where the database lives: a local directory here. */
  String location() {
    return directory.toString();
  }

  /** Settings the storage needs (as {@code key=value}), passed to the writer process too. */
  List<String> storageSettings() {
    return List.of();
  }

  /** {@link #config()} with {@code settings} ({@code key=value} each) over it. */
  static CellarConfig config(List<String> settings) {
    CellarConfig config = config();
    for (String setting : settings) {
      int equals = setting.indexOf('=');
      config = config.with(setting.substring(0, equals), setting.substring(equals + 1));
    }
    return config;
  }

  static Put put(int i) {
    return new Put(row(i))
        .addColumn(FAMILY, FIRST, value(i, FIRST))
        .addColumn(FAMILY, SECOND, value(i, SECOND));
  }

  @Test
  void everyAcknowledgedWriteSurvivesAKillAndNoneIsHalfApplied(TestSeed seed) throws Exception {
    int rounds = Integer.getInteger("cellar.crash.rounds", 3);
    SplittableRandom random = new SplittableRandom(seed.value());
    int acked = -1;
    for (int round = 0; round < rounds; round++) {
      acked = Math.max(acked, runAndKill(acked + 1, 200 + random.nextInt(1500)));
      verify(acked, "round " + round);
    }
  }

  /** Runs the writer from row {@code first} and kills it after {@code atLeast} acks. */
  private int runAndKill(int first, int atLeast) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                CellarWriterProcess.class.getName(),
                location(),
                Integer.toString(first)));
    command.addAll(storageSettings());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    int last = first - 1;
    List<String> output = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("acked ")) {
          last = Integer.parseInt(line.substring(6));
          if (last - first + 1 >= atLeast) {
            break;
          }
        } else if (output.size() < 50) {
          output.add(line);
        }
      }
      process.destroyForcibly();
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the writer did not die");
    }
    assertTrue(last - first + 1 >= atLeast, "the writer stopped early: " + output);
    assertEquals(137, process.exitValue(), "the writer was not killed by SIGKILL");
    return last;
  }

  /**
   * Every acknowledged row is there, complete. The writer may have written a few more rows after
   * the last acknowledgement the parent read and before the kill landed: the rows present must be
   * exactly rows 0 to some k at or beyond the last acknowledged one, each complete.
   */
  private void verify(int acked, String context) throws Exception {
    try (Cellar cellar = Cellar.open(location(), config(storageSettings()))) {
      Table table = cellar.table("crash");
      for (int i = 0; i <= acked; i++) {
        try (Result result = table.get(new Get(row(i)))) {
          assertEquals(2, result.size(), context + ": acknowledged row " + i + " lost");
        }
      }
      int rows = 0;
      try (ResultScanner scanner = table.scanner(new Scan())) {
        for (Result result : scanner) {
          try (result) {
            assertArrayEquals(row(rows), result.row(), context + ": rows are not contiguous");
            assertEquals(2, result.size(), context + ": row " + rows + " half applied");
            assertArrayEquals(value(rows, FIRST), result.getValue(FAMILY, FIRST), context);
            assertArrayEquals(value(rows, SECOND), result.getValue(FAMILY, SECOND), context);
            rows++;
          }
        }
      }
      assertTrue(
          rows >= acked + 1,
          context + ": " + rows + " rows after " + (acked + 1) + " acknowledged");
    }
  }
}
