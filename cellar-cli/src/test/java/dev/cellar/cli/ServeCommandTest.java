package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cellar serve} on a directory it cannot use: one line naming it and the reason, exit 1. */
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

  private static CliRun serve(Path dir) {
    return CliRun.of("serve", "--dir", dir.toString(), "--port", "0", "--info-port", "-1");
  }
}
