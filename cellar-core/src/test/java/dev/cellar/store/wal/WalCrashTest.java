package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.store.wal.WalTestSupport.Expected;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process appending {@link Durability#SYNC_WAL} entries from four threads with SIGKILL at a
 * random moment, then recovers the log: every acknowledged entry is there with its exact cells, and
 * every entry there is whole (all its cells or none of it). The rounds share one directory, so each
 * round also recovers what earlier recoveries left. CI runs two rounds; {@code
 * -Dcellar.crash.rounds=N} (through {@code -Dcellar.test.extraJvmArgs}) runs more.
 */
@ExtendWith(TestSeedExtension.class)
class WalCrashTest {

  private static final int THREADS = 4;

  @TempDir Path root;

  private Path directory() {
    return root.resolve("wal");
  }

  /** The table writer {@code thread} of {@code round} appends to. */
  static String table(int round, int thread) {
    return "round-" + round + "-writer-" + thread;
  }

  /** The cells of the {@code k}-th entry of a writer: one to four, the first row naming k. */
  static List<KeyValue> cells(long seed, int round, int thread, int k) {
    Random random = new Random(seed ^ ((long) round << 48) ^ ((long) thread << 32) ^ k);
    List<KeyValue> cells = new ArrayList<>();
    int count = 1 + random.nextInt(4);
    for (int c = 0; c < count; c++) {
      byte[] value = new byte[random.nextInt(400)];
      random.nextBytes(value);
      cells.add(
          KeyValue.create(
              Bytes.toBytes("k" + k + "-c" + c),
              Bytes.toBytes("f"),
              Bytes.toBytes("q" + random.nextInt(10)),
              random.nextLong(),
              CellType.PUT,
              value));
    }
    return cells;
  }

  private record Ack(long sequenceId, int thread, int k) {}

  @Test
  void aKilledWriterLosesNoAcknowledgedEntryAndLeavesNoPartialOne(TestSeed seed) throws Exception {
    int rounds = Integer.getInteger("cellar.crash.rounds", 2);
    SplittableRandom random = new SplittableRandom(seed.value());
    List<List<Ack>> acksByRound = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      acksByRound.add(runAndKill(round, seed.value(), 100 + random.nextInt(600)));
      verify(acksByRound, seed.value(), "round " + round);
    }
  }

  /**
   * Runs the writer until it acknowledged {@code atLeast} entries, kills it, and returns every ack
   * it printed. Its output goes to a file, which outlives the process with all it printed.
   */
  private List<Ack> runAndKill(int round, long seed, int atLeast) throws Exception {
    Path output = root.resolve("round-" + round + ".out");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            WalWriterProcess.class.getName(),
            directory().toString(),
            Integer.toString(round),
            Long.toString(seed),
            Integer.toString(THREADS));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (acks(output).size() < atLeast && process.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
    } finally {
      process.destroyForcibly();
    }
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the writer did not die");
    List<Ack> acks = acks(output);
    String printed = Files.readString(output);
    assertTrue(acks.size() >= atLeast, "the writer stopped early: " + printed);
    assertEquals(137, process.exitValue(), "the writer was not killed by SIGKILL: " + printed);
    return acks;
  }

  /** Parses the complete ack lines printed so far; a line cut by the kill is not an ack. */
  private static List<Ack> acks(Path output) throws IOException {
    String printed = Files.readString(output);
    List<Ack> acks = new ArrayList<>();
    for (String line : printed.substring(0, printed.lastIndexOf('\n') + 1).split("\n")) {
      if (line.startsWith("ack ")) {
        String[] fields = line.split(" ");
        acks.add(
            new Ack(
                Long.parseLong(fields[1]),
                Integer.parseInt(fields[2]),
                Integer.parseInt(fields[3])));
      }
    }
    return acks;
  }

  private void verify(List<List<Ack>> acksByRound, long seed, String context) throws Exception {
    Map<Long, Expected> replayed = new HashMap<>();
    Map<String, Integer> entriesOfWriter = new HashMap<>();
    try (WriteAheadLog wal = WriteAheadLog.open(directory(), WalConfig.defaults())) {
      for (Expected entry : WalTestSupport.replayAll(wal, 0)) {
        replayed.put(entry.sequenceId(), entry);
        int round = Integer.parseInt(entry.table().split("-")[1]);
        int thread = Integer.parseInt(entry.table().split("-")[3]);
        String firstRow = Bytes.toString(entry.cells().getFirst().rowArray());
        int k = Integer.parseInt(firstRow.substring(1, firstRow.indexOf('-')));
        WalTestSupport.assertSameEntry(
            WalTestSupport.expected(
                entry.table(), entry.sequenceId(), cells(seed, round, thread, k)),
            entry,
            context + ": a replayed entry is whole");
        int expectedK = entriesOfWriter.merge(entry.table(), 1, Integer::sum) - 1;
        assertEquals(
            expectedK,
            k,
            context
                + ": "
                + entry.table()
                + " appends one entry after"
                + " the other, so its entries replay without a gap");
      }
    }
    int acknowledged = 0;
    for (int round = 0; round < acksByRound.size(); round++) {
      for (Ack ack : acksByRound.get(round)) {
        Expected entry = replayed.get(ack.sequenceId());
        assertNotNull(
            entry, context + ": acknowledged entry " + ack + " of round " + round + " is lost");
        WalTestSupport.assertSameEntry(
            WalTestSupport.expected(
                table(round, ack.thread()),
                ack.sequenceId(),
                cells(seed, round, ack.thread(), ack.k())),
            entry,
            context);
        acknowledged++;
      }
    }
    System.out.println(
        "WAL crash test, "
            + context
            + ": "
            + acknowledged
            + " acknowledged entries, "
            + replayed.size()
            + " replayed");
  }
}
