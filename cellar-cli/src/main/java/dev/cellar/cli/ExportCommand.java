package dev.cellar.cli;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.TableExport;
import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import dev.cellar.client.RemoteExport;
import dev.cellar.io.DirectoryLockedException;
import dev.cellar.io.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cellar export}: writes a table as HBase's bulk load takes it ({@link TableExport}),
 * progress on stderr, one summary line on stdout. Either opens the database itself ({@code --dir},
 * or {@code hbase.rootdir}) or, with {@code --connect}, asks the {@code cellar serve} that holds it
 * ({@link RemoteExport}, connected through {@link ServerConnect}), which writes the files. The
 * output directory is local or a URI (HDFS). Exit code 1 when refused or failed, with one line on
 * stderr saying why: no such table, output in use, database locked by a running server, server not
 * reachable.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Write a point-in-time copy of a table for HBase's bulk load.",
      "The copy is OUT/<family>/<hfile>, with each family's block size, encoding, compression"
          + " and bloom filter, every version the family keeps, delete markers applied. Load it"
          + " into HBase with",
      "  hbase completebulkload OUT TABLE",
      "The database is --dir DIR, else hbase.rootdir (from --conf or -D).",
      "Example:",
      "  cellar export --dir ./data --table t --out /tmp/t-copy --split-keys row5,row9",
      "While cellar serve holds the database:",
      "  cellar export --connect host:16020 --table t --out DIR",
      "(DIR is written by the server: a path on its machine or a URI such as hdfs://nn:8020/x)"
    },
    exitCodeList =
        "1:refused or failed (one line on standard error says why: no such table,"
            + " output in use, database held by a running server, server not reachable)")
final class ExportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--connect",
      paramLabel = "HOST:PORT",
      description =
          "ask the cellar serve" + " holding the database to export it instead of opening it here")
  String connect;

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "the table")
  String table;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "OUT",
      description =
          "the output directory, new or empty: a path or a URI such as"
              + " hdfs://host:8020/exports/t")
  String out;

  @Option(
      names = "--split-keys",
      paramLabel = "KEYS|@FILE",
      description =
          "region boundaries to"
              + " cut files at: k1,k2,... or @FILE with one key per line (\\xNN for a byte)")
  String splitKeys;

  @Override
  public Integer call() {
    List<byte[]> keys;
    try {
      keys = splitKeys == null ? List.of() : SplitKeys.parse(splitKeys);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (connect != null && database.given(null) != null) {
      throw new ParameterException(spec.commandLine(), "give --dir or --connect, not both");
    }
    try {
      return connect != null ? exportThroughServer(keys) : exportHere(keys);
    } catch (DirectoryLockedException e) {
      throw new CommandFailure(
          e.getMessage()
              + "; if cellar serve holds it, export through the"
              + " server: --connect HOST:PORT");
    } catch (IOException | IllegalArgumentException e) {
      throw new CommandFailure(e.getMessage());
    }
  }

  private int exportHere(List<byte[]> keys) throws IOException {
    String location = database.location(null);
    CellarConfig config = database.config();
    if (StorageLocation.isLocalPath(location) && !Files.isDirectory(Path.of(location))) {
      throw new CommandFailure(location + " is not a database directory");
    }
    try (Cellar cellar = Cellar.open(location, config)) {
      List<TableExport.Family> families =
          TableExport.export(cellar, table, out, config, keys, System.err::println);
      long files = families.stream().mapToLong(family -> family.files().size()).sum();
      long cells = families.stream().mapToLong(TableExport.Family::cells).sum();
      System.out.println(
          "exported "
              + table
              + " to "
              + out
              + ": "
              + families.size()
              + " families, "
              + files
              + " files, "
              + cells
              + " cells");
    }
    return ExitCodes.DONE;
  }

  private int exportThroughServer(List<byte[]> keys) throws IOException {
    try (CellarClient client =
        ServerConnect.open(
            "cellar export", connect, ClientSettings.from(database.config()), System.err)) {
      RemoteExport.Result result = client.exports().export(table, out, keys);
      result.progress().forEach(System.err::println);
      long files = result.families().stream().mapToLong(family -> family.files().size()).sum();
      long cells = result.families().stream().mapToLong(RemoteExport.Family::cells).sum();
      System.out.println(
          "exported "
              + table
              + " to "
              + out
              + " (written by "
              + connect
              + "): "
              + result.families().size()
              + " families, "
              + files
              + " files, "
              + cells
              + " cells");
    }
    return ExitCodes.DONE;
  }
}
