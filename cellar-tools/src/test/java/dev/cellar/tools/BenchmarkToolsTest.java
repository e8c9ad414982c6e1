package dev.cellar.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cli.CellarCommand;
import dev.cellar.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** With this module on the class path, {@code cellar} has the benchmark tools after its own. */
class BenchmarkToolsTest {

  @Test
  void theToolsFollowTheServersCommands() {
    List<String> names = List.copyOf(CellarCommand.commandLine().getSubcommands().keySet());
    assertEquals(
        List.of(
            "help",
            "serve",
            "shell",
            "check",
            "repair",
            "hfile",
            "export",
            "bulkload",
            "demo",
            "pe",
            "ycsb",
            "bench"),
        names);
  }

  @Test
  void theHelpListsThemAndTheyRun() {
    CliRun help = CliRun.of("--help");
    assertEquals(0, help.exit(), help.toString());
    for (String tool : List.of("demo", "pe", "ycsb", "bench")) {
      assertTrue(help.out().contains("\n  " + tool + " "), help.toString());
    }
    CliRun jmh = CliRun.of("bench", "--help");
    assertEquals(0, jmh.exit(), jmh.toString());
    assertTrue(jmh.out().contains("jmh"), jmh.toString());
  }
}
