package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command-line convention for where the database is and what it is opened with: every command
 * that opens a database takes {@code --dir}, {@code --wal-dir}, {@code --conf} and {@code -D},
 * every one that connects to a server or reads a file {@code --conf} and {@code -D}; the directory
 * argument of {@code check}, {@code repair} and {@code shell} and {@code --dir} are one and the
 * same, and naming two directories is a usage error in one line; without either the database is
 * {@code hbase.rootdir} of the settings.
 */
class DatabaseOptionsTest {

  private static final List<String> OPENING_A_DATABASE =
      List.of("serve", "shell", "check", "repair", "export", "bulkload", "pe");
  private static final List<String> WITH_SETTINGS =
      List.of("ycsb", "hfile", "bench rocksdb", "bench encoding");

  @TempDir Path temporary;
  private Path database;

  @BeforeEach
  void createDatabase() throws IOException {
    database = temporary.resolve("db");
    try (Cellar cellar =
        Cellar.open(
            database, CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m"))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    }
  }

  @Test
  void everyCommandThatOpensADatabaseTakesTheSameOptions() {
    CommandLine root = CellarCommand.commandLine();
    for (String name : OPENING_A_DATABASE) {
      CommandSpec spec = command(root, name);
      for (String option : List.of("--dir", "--wal-dir", "--conf", "-D")) {
        assertNotNull(spec.findOption(option), name + " " + option);
      }
    }
    for (String name : WITH_SETTINGS) {
      CommandSpec spec = command(root, name);
      for (String option : List.of("--conf", "-D")) {
        assertNotNull(spec.findOption(option), name + " " + option);
      }
    }
  }

  @Test
  void theDirectoryIsAnArgumentOrDirAlike() {
    for (List<String> args :
        List.of(
            List.of("check", database.toString()),
            List.of("check", "--dir", database.toString()),
            List.of("check", database.toString(), "--dir", database + "/"),
            List.of("repair", "--dir", database.toString()))) {
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, run.exit(), args + ": " + run);
      assertTrue(run.out().startsWith("OK: " + database), args + ": " + run);
    }
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream("list\n".getBytes(StandardCharsets.UTF_8)));
      CliRun shell = CliRun.of("shell", "--dir", database.toString());
      assertEquals(0, shell.exit(), shell::toString);
      assertTrue(shell.out().contains("TABLE\nt\n1 row(s)"), shell::toString);
    } finally {
      System.setIn(stdin);
    }
  }

  @Test
  void twoDifferentDirectoriesAreAUsageErrorInOneLine() {
    Path other = temporary.resolve("other");
    for (String command : List.of("check", "repair", "shell")) {
      CliRun run = CliRun.of(command, database.toString(), "--dir", other.toString());
      assertEquals(2, run.exit(), run::toString);
      assertEquals(
          List.of(
              "cellar "
                  + command
                  + ": DIR "
                  + database
                  + " and --dir "
                  + other
                  + " differ; give the database once",
              "Try 'cellar " + command + " --help' for the options."),
          run.err().lines().toList(),
          run::toString);
    }
  }

  @Test
  void withoutADirectoryTheDatabaseIsTheRootDirOfTheSettings() throws IOException {
    Path site =
        Files.writeString(
            temporary.resolve("site.xml"),
            """
        <configuration>
          <property><name>hbase.rootdir</name><value>%s</value></property>
        </configuration>
        """
                .formatted(database));
    Path elsewhere =
        Files.writeString(
            temporary.resolve("elsewhere.xml"),
            """
        <configuration>
          <property><name>hbase.rootdir</name><value>%s</value></property>
        </configuration>
        """
                .formatted(temporary.resolve("nothing")));
    for (List<String> args :
        List.of(
            List.of("check", "--conf", site.toString()),
            List.of("check", "-Dhbase.rootdir=" + database),
            List.of("check", "--conf", elsewhere.toString(), "-Dhbase.rootdir=" + database),
            List.of("repair", "--conf", site.toString()))) {
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, run.exit(), args + ": " + run);
      assertTrue(run.out().startsWith("OK: " + database), args + ": " + run);
    }
  }

  @Test
  void noDatabaseAtAllIsAUsageError() {
    for (String command :
        List.of("check", "repair", "serve", "bulkload --table t src", "export --table t --out x")) {
      CliRun run = CliRun.of(command.split(" "));
      assertEquals(2, run.exit(), command + ": " + run);
      assertTrue(
          run.err()
              .startsWith(
                  "cellar "
                      + command.split(" ")[0]
                      + ": no database given:"
                      + " give --dir DIR, or set hbase.rootdir"),
          command + ": " + run);
    }
  }

  @Test
  void aSiteFileThatCannotBeReadIsOneLineAndExitOne() throws IOException {
    Path missing = temporary.resolve("missing.xml");
    Path notXml = Files.writeString(temporary.resolve("not.xml"), "hbase.rootdir=/x\n");
    for (List<String> args :
        List.of(
            List.of("check", database.toString(), "--conf", missing.toString()),
            List.of("shell", database.toString(), "--conf", missing.toString()),
            List.of("serve", "--dir", database.toString(), "--conf", missing.toString()),
            List.of(
                "pe",
                "--dir",
                database.toString(),
                "--conf",
                missing.toString(),
                "sequentialWrite",
                "1"),
            List.of("hfile", database.resolve("tables").toString(), "--conf", missing.toString()),
            List.of("ycsb", "load", "--connect", "127.0.0.1:1", "--conf", missing.toString()))) {
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(1, run.exit(), args + ": " + run);
      assertEquals(
          "cellar " + args.getFirst() + ": --conf " + missing + ": no such file\n",
          run.err(),
          args + ": " + run);
    }
    CliRun run = CliRun.of("check", database.toString(), "--conf", notXml.toString());
    assertEquals(1, run.exit(), run::toString);
    assertTrue(
        run.err()
            .startsWith(
                "cellar check: --conf " + notXml + ": not a readable" + " configuration file"),
        run::toString);
    assertEquals(1, run.err().lines().count(), run::toString);
  }

  private static CommandSpec command(CommandLine root, String name) {
    CommandLine command = root;
    for (String part : name.split(" ")) {
      command = command.getSubcommands().get(part);
    }
    return command.getCommandSpec();
  }
}
