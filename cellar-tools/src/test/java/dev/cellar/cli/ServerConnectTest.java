package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client tools ({@code shell}, {@code pe}, {@code ycsb}, {@code export} with {@code --connect})
 * never wait in silence: a closed port or an unknown host fails at once with one line naming the
 * address and what was tried, and a server that accepts connections but does not answer is
 * announced after a second while HBase's retries run.
 */
class ServerConnectTest {

  private static final long FAST_MILLIS = 5_000;

  /** Each tool's arguments around {@code --connect ADDRESS}, with extra client settings. */
  static Stream<Arguments> tools() {
    return Stream.of(
        Arguments.of("shell", List.of("shell"), List.of()),
        Arguments.of("pe", List.of("pe"), List.of("--rows", "10", "sequentialWrite", "1")),
        Arguments.of("ycsb", List.of("ycsb", "load"), List.of()),
        Arguments.of(
            "export",
            List.of("export"),
            List.of("--table", "t", "--out", "target/never-written-export")));
  }

  private static CliRun run(
      List<String> before, String address, List<String> after, String... settings) {
    List<String> args = new ArrayList<>(before);
    args.addAll(List.of("--connect", address));
    String flag = before.getFirst().equals("ycsb") ? "-p" : "-D";
    for (String setting : settings) {
      args.addAll(List.of(flag, setting));
    }
    args.addAll(after);
    InputStream original = System.in;
    try {
      System.setIn(new ByteArrayInputStream("list\n".getBytes(StandardCharsets.UTF_8)));
      return CliRun.of(args.toArray(String[]::new));
    } finally {
      System.setIn(original);
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void assertOneLine(CliRun run, String tool, String... parts) {
    assertEquals(1, run.exit(), run.toString());
    String err = run.err();
    assertEquals(1, err.lines().count(), "one line on stderr: " + run);
    assertTrue(err.startsWith("cellar " + tool + ": cannot connect to "), run.toString());
    for (String part : parts) {
      assertTrue(err.contains(part), "'" + part + "' in: " + run);
    }
    assertFalse(err.contains("\tat "), run.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tools")
  void aClosedPortFailsAtOnce(String tool, List<String> before, List<String> after)
      throws IOException {
    int port = closedPort();
    long start = System.nanoTime();
    CliRun run = run(before, "localhost:" + port, after);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertOneLine(
        run,
        tool,
        "localhost:" + port,
        "connection refused",
        "tried a TCP connection to",
        "port " + port);
    assertTrue(millis < FAST_MILLIS, "took " + millis + " ms: " + run);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tools")
  void anUnknownHostFailsAtOnce(String tool, List<String> before, List<String> after) {
    long start = System.nanoTime();
    CliRun run = run(before, "nonexistent.invalid:16020", after);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertOneLine(run, tool, "nonexistent.invalid:16020", "unknown host nonexistent.invalid");
    assertTrue(millis < FAST_MILLIS, "took " + millis + " ms: " + run);
  }

  @Test
  void aServerThatListensButDoesNotAnswerIsAnnouncedWhileRetrying() throws IOException {
    try (ServerSocket silent = new ServerSocket(0)) {
      List<Socket> accepted = new ArrayList<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  while (true) {
                    accepted.add(silent.accept());
                  }
                } catch (IOException closed) {
                  accepted.forEach(
                      socket -> {
                        try {
                          socket.close();
                        } catch (IOException ignored) {
                          // the test is over
                        }
                      });
                }
              });
      String address = "localhost:" + silent.getLocalPort();
      CliRun run =
          run(
              List.of("shell"),
              address,
              List.of(),
              "hbase.rpc.timeout=2500",
              "hbase.client.retries.number=0");
      assertEquals(1, run.exit(), run.toString());
      assertTrue(
          run.err()
              .contains(
                  "cellar shell: "
                      + address
                      + " accepts connections but has"
                      + " not answered yet; retrying as HBase's client does (up to 0 retries"),
          run.toString());
      assertTrue(run.err().contains("cellar shell: cannot open " + address + ": "), run.toString());
    }
  }
}
