package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar serve} where it cannot start (a directory it cannot use, a ZooKeeper quorum it
 * cannot reach): one line naming what failed and why, exit 1, and nothing left locked.
 */
class ServeCommandTest {

  @TempDir Path tmp;

  @Test
  void aDirectoryUnderARegularFileIsNotADirectory() throws IOException {
    Path file = Files.writeString(tmp.resolve("F"), "not a directory");
    CliRun run = serve(file.resolve("db"));
    assertEquals(1, run.exit(), run::toString);
    assertEquals(
        "cellar serve: " + file.resolve("db") + ": Not a directory\n", run.err(), run::toString);
  }

  @Test
  void aDirectoryThatCannotBeMadeSaysWhy() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux's /proc");
    CliRun run = serve(Path.of("/proc/nope"));
    assertEquals(1, run.exit(), run::toString);
    assertEquals("cellar serve: /proc/nope: no such file or directory\n", run.err(), run::toString);
  }

  @Test
  void anUnreachableZooKeeperQuorumIsNamedAndTheDirectoryFreed() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path db = tmp.resolve("db");
    CliRun run =
        CliRun.of(
            "serve",
            "--dir",
            db.toString(),
            "--port",
            "0",
            "--info-port",
            "-1",
            "-D",
            "hbase.zookeeper.quorum=127.0.0.1:" + port,
            "-D",
            "cellar.server.zookeeper.connect.timeout=300");
    assertEquals(1, run.exit(), run::toString);
    // ZooKeeper's client may warn of the refused connections before
    assertTrue(
        run.err()
            .endsWith(
                "cellar serve: ZooKeeper unreachable: no session with 127.0.0.1:"
                    + port
                    + " within 300 ms (hbase.zookeeper.quorum,"
                    + " hbase.zookeeper.property.clientPort;"
                    + " cellar.server.zookeeper.connect.timeout)\n"),
        run::toString);
    try (Cellar reopened = Cellar.open(db, CellarConfig.defaults())) {
      assertEquals(List.of(), reopened.admin().listTables());
    }
  }

  private static CliRun serve(Path dir) {
    return CliRun.of("serve", "--dir", dir.toString(), "--port", "0", "--info-port", "-1");
  }
}
