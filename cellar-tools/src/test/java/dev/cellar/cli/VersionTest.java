package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --version} on the root command and on every subcommand prints the same one line. */
class VersionTest {

  @Test
  void rootPrintsTheProjectVersion() {
    CliRun run = CliRun.of("--version");
    assertEquals(0, run.exit(), run::toString);
    assertEquals("Cellar " + CellarVersion.version() + "\n", run.out(), run::toString);
    assertTrue(CellarVersion.version().matches("\\d+\\.\\d+\\.\\d+.*"), CellarVersion.version());
  }

  @Test
  void everySubcommandPrintsTheSameLine() {
    String expected = CliRun.of("--version").out();
    for (List<String> path : subcommandPaths(CellarCommand.commandLine(), List.of())) {
      List<String> args = new ArrayList<>(path);
      args.add("--version");
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, run.exit(), () -> path + ": " + run);
      assertEquals(expected, run.out(), () -> path + ": " + run);
      assertEquals("", run.err(), () -> path + ": " + run);
    }
  }

  /** The names that reach each subcommand, at any depth. */
  static List<List<String>> subcommandPaths(CommandLine command, List<String> prefix) {
    List<List<String>> paths = new ArrayList<>();
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> path = new ArrayList<>(prefix);
              path.add(name);
              paths.add(path);
              paths.addAll(subcommandPaths(sub, path));
            });
    return paths;
  }
}
