package dev.cellar.cli.shell;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Database;
import dev.cellar.cli.CommandFailure;
import dev.cellar.cli.DatabaseOptions;
import dev.cellar.cli.ExitCodes;
import dev.cellar.cli.ServerConnect;
import dev.cellar.client.ClientSettings;
import dev.cellar.client.ServerUnreachableException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cellar shell [--connect HOST:PORT | [--create] DIR]}: HBase's shell commands on a server
 * or an embedded database (DIR, or {@code --dir DIR}). A server that cannot be reached is reported
 * at once ({@link ServerConnect}); a directory that is not a Cellar database (no {@code tables/})
 * is refused unless {@code --create} asks for a new one, so a mistyped path does not become an
 * empty database. On a terminal it reads lines with JLine (history in {@code
 * ~/.cellar_shell_history}, completion of commands and table names); otherwise it reads the
 * commands from standard input, one per line, so scripts can be piped in. Exit code 1 when a
 * command failed, the database could not be opened, DIR holds no database and {@code --create} was
 * not given, or the server could not be reached.
 */
@Command(
    name = "shell",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run HBase's shell commands on Cellar.",
      "On a server (--connect) or an embedded database (DIR).",
      "Reads commands from the terminal, or from standard input when it is not one.",
      "DIR must hold a Cellar database; --create makes a new one there.",
      "Example: echo \"scan 't', {LIMIT => 5}\" | cellar shell --connect localhost:16020"
    },
    exitCodeList =
        "1:a command failed, the database could not be opened (DIR holds none and"
            + " --create was not given), or the server could not be reached")
public final class ShellCommand implements Callable<Integer> {

  private static final String PROMPT = "cellar> ";

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "DIR",
      description = DatabaseOptions.ARGUMENT)
  String dir;

  @Option(names = "--create", description = "create the database in DIR if it has none")
  boolean create;

  @Option(
      names = "--connect",
      paramLabel = "HOST:PORT",
      description = "a cellar serve to" + " connect to, instead of a database directory")
  String connect;

  @Mixin DatabaseOptions database;

  @Override
  public Integer call() throws IOException {
    String given = database.given(dir);
    if ((connect == null) == (given == null)) {
      throw new ParameterException(
          spec.commandLine(),
          "give a database directory (DIR or --dir" + " DIR) or --connect HOST:PORT, one of them");
    }
    if (create && connect != null) {
      throw new ParameterException(
          spec.commandLine(), "--create is for a database directory," + " not --connect");
    }
    CellarConfig config = database.config();
    if (given != null && !create && !Files.isDirectory(Path.of(given).resolve("tables"))) {
      throw new CommandFailure(
          given
              + " is not a Cellar database (no tables/ directory); give"
              + " --create to make a new one");
    }
    Database opened;
    try {
      opened =
          connect != null
              ? ServerConnect.open("cellar shell", connect, ClientSettings.from(config), System.err)
              : Cellar.open(Path.of(given), config);
    } catch (ServerUnreachableException e) {
      throw new CommandFailure(e.getMessage());
    } catch (IOException | IllegalArgumentException e) {
      throw new CommandFailure(
          "cannot open " + (connect != null ? connect : given) + ": " + e.getMessage());
    }
    return run(opened, connect != null ? connect : given);
  }

  private static int run(Database database, String name) throws IOException {
    PrintStream out = System.out;
    try (database) {
      Shell shell = new Shell(database, name, new ShellOutput(out));
      if (System.console() != null && System.console().isTerminal()) {
        interactive(shell, database);
        return ExitCodes.DONE;
      }
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!shell.run(line)) {
          break;
        }
      }
      return shell.errors() > 0 ? ExitCodes.FAILED : ExitCodes.DONE;
    }
  }

  private static void interactive(Shell shell, Database database) throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .completer(new ShellCompleter(database))
              .variable(
                  LineReader.HISTORY_FILE,
                  Path.of(System.getProperty("user.home"), ".cellar_shell_history"))
              .build();
      while (true) {
        String line;
        try {
          line = reader.readLine(PROMPT);
        } catch (UserInterruptException e) {
          continue;
        } catch (EndOfFileException e) {
          return;
        }
        if (!shell.run(line)) {
          return;
        }
      }
    }
  }
}
