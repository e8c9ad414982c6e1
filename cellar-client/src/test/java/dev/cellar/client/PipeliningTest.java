package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads share one client: their calls go out on one connection, in flight together, and each
 * gets its own answer (the answers are matched by call id, whatever order they come in).
 */
@ExtendWith(NettyLeakCheck.class)
@ExtendWith(TestSeedExtension.class)
class PipeliningTest {

  private static final int ROWS = 200;
  private static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);
  private static final byte[] Q = "q".getBytes(StandardCharsets.UTF_8);

  @TempDir Path directory;

  private static byte[] value(int row) {
    return ("value-" + row + "-" + "x".repeat(row % 50)).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void concurrentCallsShareOneConnectionAndGetTheirOwnAnswers(TestSeed seed) throws Exception {
    try (ServedDatabase served = ServedDatabase.start(directory, CellarConfig.defaults())) {
      served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = served.client.table("t");
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(("row-" + i).getBytes(StandardCharsets.UTF_8)).addColumn(F, Q, value(i)));
      }
      table.put(puts);
      int connections = served.server.openConnections();
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          SplittableRandom random = new SplittableRandom(seed.value() + t);
          done.add(
              threads.submit(
                  () -> {
                    int checked = 0;
                    for (int i = 0; i < 300; i++) {
                      int row = random.nextInt(ROWS);
                      try (Result result =
                          table.get(new Get(("row-" + row).getBytes(StandardCharsets.UTF_8)))) {
                        assertEquals(
                            new String(value(row), StandardCharsets.UTF_8),
                            new String(result.getValue(F, Q), StandardCharsets.UTF_8),
                            "row " + row);
                        checked++;
                      }
                    }
                    return checked;
                  }));
        }
        for (Future<Integer> thread : done) {
          assertEquals(300, thread.get());
        }
      } finally {
        threads.shutdown();
      }
      assertEquals(
          connections,
          served.server.openConnections(),
          "the threads' calls share the ClientService connection");
      assertEquals(0, served.client.callsInFlight());
    }
  }

  @Test
  void callsSentBeforeAnyAnswerAllComplete() throws Exception {
    try (ServedDatabase served = ServedDatabase.start(directory, CellarConfig.defaults())) {
      served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = served.client.table("t");
      table.put(new Put("r".getBytes(StandardCharsets.UTF_8)).addColumn(F, Q, value(7)));
      RpcProbe probe = new RpcProbe(served.client);
      int answered = probe.sendGetsThenAwait("t", "r".getBytes(StandardCharsets.UTF_8), 500);
      assertEquals(500, answered);
      assertTrue(probe.maxInFlight() > 1, "calls were in flight together: " + probe.maxInFlight());
    }
  }
}
