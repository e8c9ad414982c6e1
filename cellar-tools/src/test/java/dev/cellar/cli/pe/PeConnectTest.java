package dev.cellar.cli.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.cli.CliRun;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cellar pe --connect}: every command through Cellar's client against an in-process server,
 * with the same report as embedded (the cache and allocator lines replaced by the server's
 * address), and the options that make no sense remotely refused.
 */
class PeConnectTest {

  @TempDir static Path serverDir;
  private static CellarServer server;
  private static String address;

  private static final List<String> REPORT_FIELDS =
      List.of(
          "throughput",
          "ops/s total",
          "p50 ",
          "p99 ",
          "p99.99 ",
          "max ",
          "bytes allocated per operation",
          "collections",
          "server       ");

  @BeforeAll
  static void startServerAndWriteRows() throws IOException {
    CellarConfig config =
        CellarConfig.defaults().with(ServerOptions.PORT, "0").with(ServerOptions.HANDLERS, "4");
    server = CellarServer.start(ServerOptions.from(serverDir, config), config);
    address = server.hostAndPort();
    CliRun run =
        CliRun.of(
            "pe",
            "--connect",
            address,
            "--rows",
            "300",
            "--progress",
            "0",
            "--seed",
            "1",
            "sequentialWrite",
            "2");
    assertReport(run);
    assertTrue(run.out().contains("600 written"), run.toString());
  }

  @AfterAll
  static void stopServer() throws IOException {
    server.close();
  }

  private static void assertReport(CliRun run) {
    assertEquals(0, run.exit(), run.toString());
    for (String field : REPORT_FIELDS) {
      assertTrue(run.out().contains(field), "no '" + field + "' in\n" + run);
    }
    assertTrue(run.err().contains("database in the server at " + address), run.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"randomRead", "sequentialRead"})
  void getsFindEveryRow(String command) {
    CliRun run =
        CliRun.of("pe", "--connect", address, "--rows", "300", "--progress", "0", command, "2");
    assertReport(run);
    assertTrue(run.out().contains("600 of 600 gets found their row"), run.toString());
  }

  @Test
  void multiGetsFindEveryRow() {
    CliRun run =
        CliRun.of(
            "pe",
            "--connect",
            address,
            "--rows",
            "300",
            "--progress",
            "0",
            "--multiGet",
            "10",
            "randomRead",
            "1");
    assertReport(run);
    assertTrue(run.out().contains("300 of 300 gets found their row"), run.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"scan", "scanRange10", "scanRange100", "filterScan", "randomSeekScan"})
  void scansReturnRows(String command) {
    CliRun run =
        CliRun.of("pe", "--connect", address, "--rows", "300", "--progress", "0", command, "2");
    assertReport(run);
    assertTrue(run.out().contains("returned by"), run.toString());
  }

  @Test
  void randomWritesAndWritesWithoutTheLogWork() {
    CliRun run =
        CliRun.of(
            "pe",
            "--connect",
            address,
            "--rows",
            "100",
            "--progress",
            "0",
            "--table",
            "Other",
            "--writeToWAL=false",
            "randomWrite",
            "2");
    assertReport(run);
  }

  @Test
  void embeddedOnlyOptionsAreRefused() {
    CliRun dir = CliRun.of("pe", "--connect", address, "--dir", "/tmp/x", "randomRead", "1");
    assertEquals(2, dir.exit(), dir.toString());
    assertTrue(dir.err().contains("--dir and --keep are for an embedded database"), dir.toString());
  }

  @Test
  void getsThroughARowReaderFindEveryRow() {
    CliRun run =
        CliRun.of(
            "pe",
            "--connect",
            address,
            "--rows",
            "300",
            "--progress",
            "0",
            "--rowReader",
            "randomRead",
            "2");
    assertReport(run);
    assertTrue(run.out().contains("600 of 600 gets found their row"), run.toString());
  }

  @Test
  void aMissingTableIsExplained() {
    CliRun run =
        CliRun.of(
            "pe",
            "--connect",
            address,
            "--rows",
            "10",
            "--progress",
            "0",
            "--table",
            "Nothing",
            "randomRead",
            "1");
    assertEquals(1, run.exit(), run.toString());
    assertTrue(
        run.err().contains("table Nothing does not exist in the server at " + address),
        run.toString());
  }

  @Test
  void aMalformedAddressIsOneLine() {
    CliRun run = CliRun.of("pe", "--connect", "nohost", "randomRead", "1");
    assertEquals(1, run.exit(), run.toString());
    assertTrue(
        run.err().contains("--connect nohost: server address 'nohost' is not host:port"),
        run.toString());
  }
}
