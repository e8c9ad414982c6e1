package dev.cellar.tools.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.CellarCommand;
import dev.cellar.cli.CliRun;
import dev.cellar.cli.ServerProcess;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Every {@code cellar} command the README and the user guide write runs as written: each parses
 * against the command line as it is (options, arguments, values), each synopsis names only options
 * that exist, and the fast ones run: the README's quick start (a server, then the shell's check of
 * it) and the damaged-files page's check and repair of a database.
 */
class GuideCommandsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path directory;

  @Test
  void everyCommandOfTheGuideParses() throws Exception {
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (Path page : GuideCommands.pages(ROOT)) {
      for (GuideCommand command : GuideCommands.of(page)) {
        checked++;
        String failure = command.synopsis() ? unknownOptions(command) : parseFailure(command);
        if (failure != null) {
          failures.add(command + "\n    " + failure);
        }
      }
    }
    System.out.println(checked + " commands of the README and the guide checked");
    assertTrue(checked >= 50, "commands found in the guide: " + checked);
    assertEquals(List.of(), failures, "guide commands that do not parse");
  }

  @Test
  void theReadmeQuickStartServesAndTheShellChecksIt() throws Exception {
    List<GuideCommand> readme = GuideCommands.of(ROOT.resolve("README.md"));
    GuideCommand serve = first(readme, "serve");
    assertEquals(List.of("serve", "--dir", "./data"), serve.args());
    GuideCommand shell = first(readme, "shell");
    String input = printfInput(shell.text());
    try (ServerProcess server =
        ServerProcess.start(
            "the README's quick start",
            directory.resolve("data"),
            256L << 20,
            128L << 20,
            Map.of(),
            "127.0.0.1",
            System.out)) {
      List<String> args = new ArrayList<>(shell.args());
      args.replaceAll(arg -> arg.equals("127.0.0.1:16020") ? server.address() : arg);
      CliRun run = withInput(input, () -> CliRun.of(args.toArray(String[]::new)));
      assertEquals(0, run.exit(), run.toString());
      assertTrue(
          run.out().contains("column=f:a, timestamp=")
              && run.out().contains("value=hello")
              && run.out().contains("1 row(s)"),
          run.toString());
    }
  }

  @Test
  void theDamagedFilesPageChecksAndRepairsADatabase() throws Exception {
    Path data = directory.resolve("data");
    try (Cellar cellar = Cellar.open(data, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      table.put(
          new Put("r1".getBytes(StandardCharsets.UTF_8))
              .addColumn(
                  "f".getBytes(StandardCharsets.UTF_8),
                  "a".getBytes(StandardCharsets.UTF_8),
                  "hello".getBytes(StandardCharsets.UTF_8)));
    }
    List<GuideCommand> page = GuideCommands.of(ROOT.resolve("docs/guide/damaged-files.md"));
    int ran = 0;
    for (GuideCommand command : page) {
      if (command.synopsis() || !command.args().contains("./data")) {
        continue;
      }
      List<String> args = new ArrayList<>(command.args());
      args.replaceAll(arg -> arg.equals("./data") ? data.toString() : arg);
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, run.exit(), command + "\n" + run);
      ran++;
    }
    assertTrue(ran >= 3, "commands run from damaged-files.md: " + ran);
  }

  private static String parseFailure(GuideCommand command) {
    try {
      CellarCommand.commandLine().parseArgs(command.args().toArray(String[]::new));
      return null;
    } catch (ParameterException e) {
      return e.getMessage();
    }
  }

  private static String unknownOptions(GuideCommand command) {
    CommandLine target = CellarCommand.commandLine();
    for (String word : command.args()) {
      CommandLine sub = target.getSubcommands().get(word);
      if (sub == null) {
        break;
      }
      target = sub;
    }
    if (!target.getCommandSpec().unmatchedArgsBindings().isEmpty()) {
      return null;
    }
    List<String> unknown = new ArrayList<>();
    for (String name : command.optionNames()) {
      if (target.getCommandSpec().findOption(name) == null) {
        unknown.add(name);
      }
    }
    return unknown.isEmpty()
        ? null
        : "no such option of 'cellar "
            + target.getCommandSpec().qualifiedName().replaceFirst("^cellar ?", "")
            + "': "
            + String.join(", ", unknown);
  }

  private static GuideCommand first(List<GuideCommand> commands, String subcommand) {
    return commands.stream()
        .filter(c -> !c.args().isEmpty() && c.args().getFirst().equals(subcommand))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no 'cellar " + subcommand + "' in the README"));
  }

  /** What {@code printf "..." | ./cellar ...} feeds the command. */
  private static String printfInput(String text) {
    List<String> words = ShellWords.split(text.substring(0, text.indexOf('|')));
    assertEquals("printf", words.getFirst(), text);
    return words.get(1).replace("\\n", "\n");
  }

  private static CliRun withInput(String input, Supplier<CliRun> run) {
    InputStream original = System.in;
    try {
      System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
      return run.get();
    } finally {
      System.setIn(original);
    }
  }
}
