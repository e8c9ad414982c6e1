package dev.cellar.cli.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.cli.CliRun;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cellar ycsb}: YCSB's own client with Cellar's binding against an in-process server loads
 * records and runs every shipped workload without a failed operation.
 */
class YcsbCommandTest {

  @TempDir static Path serverDir;
  private static CellarServer server;
  private static String address;

  @BeforeAll
  static void startServerAndLoad() throws IOException {
    CellarConfig config =
        CellarConfig.defaults().with(ServerOptions.PORT, "0").with(ServerOptions.HANDLERS, "4");
    server = CellarServer.start(ServerOptions.from(serverDir, config), config);
    address = server.hostAndPort();
    CliRun load =
        CliRun.of("ycsb", "load", "--connect", address, "--records", "300", "--threads", "2");
    assertEquals(0, load.exit(), load.toString());
    assertTrue(load.out().contains("[INSERT], Operations, 300"), load.toString());
    assertTrue(load.out().contains("[INSERT], Return=OK, 300"), load.toString());
  }

  @AfterAll
  static void stopServer() throws IOException {
    server.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "b", "c", "d", "e", "f"})
  void everyWorkloadRunsWithoutErrors(String workload) {
    CliRun run =
        CliRun.of(
            "ycsb",
            "run",
            "--connect",
            address,
            "--workload",
            workload,
            "--records",
            "300",
            "--operations",
            "400",
            "--threads",
            "2");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("[OVERALL], Throughput(ops/sec)"), run.toString());
    assertFalse(run.out().contains("Return=ERROR"), run.toString());
    assertFalse(run.out().contains("Return=NOT_FOUND"), run.toString());
  }

  @Test
  void presplitKeysAreYcsbsGuides() {
    byte[][] keys = YcsbCommand.splitKeys(4);
    assertEquals(4, keys.length);
    String[] expected = {"user3249", "user5499", "user7749", "user9999"};
    for (int i = 0; i < 4; i++) {
      assertEquals(expected[i], new String(keys[i], java.nio.charset.StandardCharsets.US_ASCII));
    }
    assertEquals(0, YcsbCommand.splitKeys(0).length);
  }

  @Test
  void badOptionsAreNamed() {
    CliRun phase = CliRun.of("ycsb", "walk", "--connect", address);
    assertEquals(2, phase.exit(), phase.toString());
    assertTrue(phase.err().contains("the phase is load or run, not 'walk'"), phase.toString());
    CliRun workload = CliRun.of("ycsb", "run", "--connect", address, "--workload", "z");
    assertEquals(2, workload.exit(), workload.toString());
    assertTrue(
        workload.err().contains("--workload z is neither a to f nor a file"), workload.toString());
  }
}
