package dev.cellar.cli.shell;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Database;
import dev.cellar.cli.ServerConnect;
import dev.cellar.cli.WalDirOption;
import dev.cellar.client.ClientSettings;
import dev.cellar.client.ServerUnreachableException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * or an embedded database. A server that cannot be reached is reported at once ({@link
 * ServerConnect}); a directory that is not a Cellar database (no {@code tables/}) is refused
 * unless {@code --create} asks for a new one, so a mistyped path does not become an empty
 * database. On a terminal it reads lines with JLine (history in {@code
 * ~/.cellar_shell_history}, completion of commands and table names); otherwise it reads the
 * commands from standard input, one per line, so scripts can be piped in, and exits 1 if any
 * command failed. Exit codes: 0, 1 (a command failed, or the database could not be opened or the
 * server reached), 2 (bad options, or DIR is not a database and {@code --create} was not given).
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
    })
public final class ShellCommand implements Callable<Integer> {

  private static final String PROMPT = "cellar> ";

  @Spec CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "an embedded"
      + " database directory")
  Path dir;

  @Option(names = "--create", description = "create the database in DIR if it has none")
  boolean create;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "--connect", paramLabel = "HOST:PORT", description = "a cellar serve to"
      + " connect to")
  String connect;

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--conf", paramLabel = "FILE", description = "a cellar-site.xml (or"
      + " hbase-site.xml); -D settings override it")
  Path conf;

  @Override
  public Integer call() throws IOException {
    if ((connect == null) == (dir == null)) {
      throw new ParameterException(spec.commandLine(), "cellar shell: give a database"
          + " directory or --connect HOST:PORT (one of them)");
    }
    if (create && dir == null) {
      throw new ParameterException(spec.commandLine(), "cellar shell: --create is for a database"
          + " directory, not --connect");
    }
    if (conf != null && !Files.isRegularFile(conf)) {
      throw new ParameterException(spec.commandLine(), "cellar shell: --conf " + conf
          + " is not a file");
    }
    CellarConfig config = (conf != null ? CellarConfig.load(conf) : CellarConfig.defaults())
        .withAll(properties);
    config = walDirOption.applyTo(config);
    if (dir != null && !create && !Files.isDirectory(dir.resolve("tables"))) {
      System.err.println("cellar shell: " + dir + " is not a Cellar database (no tables/"
          + " directory); give --create to make a new one");
      return 2;
    }
    PrintStream out = System.out;
    Database database;
    try {
      database = connect != null
          ? ServerConnect.open("cellar shell", connect, ClientSettings.from(config), System.err)
          : Cellar.open(dir, config);
    } catch (ServerUnreachableException e) {
      System.err.println("cellar shell: " + e.getMessage());
      return 1;
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("cellar shell: cannot open " + (connect != null ? connect : dir) + ": "
          + e.getMessage());
      return 1;
    }
    try (database) {
      Shell shell = new Shell(database, connect != null ? connect : dir.toString(),
          new ShellOutput(out));
      if (System.console() != null && System.console().isTerminal()) {
        interactive(shell, database);
        return 0;
      }
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!shell.run(line)) {
          break;
        }
      }
      return shell.errors() > 0 ? 1 : 0;
    }
  }

  private static void interactive(Shell shell, Database database) throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      LineReader reader = LineReaderBuilder.builder().terminal(terminal)
          .completer(new ShellCompleter(database))
          .variable(LineReader.HISTORY_FILE, Path.of(System.getProperty("user.home"),
              ".cellar_shell_history"))
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
