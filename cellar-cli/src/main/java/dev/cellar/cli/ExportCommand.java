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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cellar export}: writes a table as HBase's bulk load takes it ({@link TableExport}),
 * progress on stderr, one summary line on stdout. Either opens the database itself ({@code --dir},
 * or {@code hbase.rootdir}) or, with {@code --connect}, asks the {@code cellar serve} that holds it
 * ({@link RemoteExport}, connected through {@link ServerConnect}), which writes the files. The
 * output directory is local or a URI (HDFS). Exit codes: 0 done, 1 refused or failed (one line on
 * stderr saying why: no such table, output in use, database locked by a running server, server
 * not reachable).
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
      "Example: cellar export --dir ./data --table t --out /tmp/t-export --split-keys row5,row9",
      "While cellar serve holds the database:",
      "  cellar export --connect host:16020 --table t --out DIR",
      "(DIR is written by the server: a path on its machine or a URI such as hdfs://nn:8020/x)"
    })
final class ExportCommand implements Callable<Integer> {

  @Option(names = "--dir", paramLabel = "DIR", description = "the database directory: a path or"
      + " a URI such as hdfs://host:8020/path (default: hbase.rootdir)")
  String dir;

  @Option(names = "--connect", paramLabel = "HOST:PORT", description = "ask the cellar serve"
      + " holding the database to export it instead of opening it here")
  String connect;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "the table")
  String table;

  @Option(names = "--out", required = true, paramLabel = "OUT",
      description = "the output directory, new or empty: a path or a URI such as"
          + " hdfs://host:8020/exports/t")
  String out;

  @Option(names = "--split-keys", paramLabel = "KEYS|@FILE", description = "region boundaries to"
      + " cut files at: k1,k2,... or @FILE with one key per line (\\xNN for a byte)")
  String splitKeys;

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting")
  Map<String, String> properties = new LinkedHashMap<>();

  @Override
  public Integer call() {
    CellarConfig config = walDirOption.applyTo(CellarConfig.defaults().withAll(properties));
    try {
      List<byte[]> keys = splitKeys == null ? List.of() : SplitKeys.parse(splitKeys);
      if (connect != null) {
        if (dir != null) {
          throw new IllegalArgumentException("give --dir or --connect, not both");
        }
        return exportThroughServer(config, keys);
      }
      String location = dir != null ? dir : config.get(CellarConfig.ROOT_DIR);
      if (location == null) {
        throw new IllegalArgumentException("give --dir (or set " + CellarConfig.ROOT_DIR
            + "), or --connect HOST:PORT");
      }
      if (StorageLocation.isLocalPath(location) && !Files.isDirectory(Path.of(location))) {
        System.err.println("cellar export: " + location + " is not a database directory");
        return 1;
      }
      try (Cellar cellar = Cellar.open(location, config)) {
        List<TableExport.Family> families = TableExport.export(cellar, table, out, config, keys,
            System.err::println);
        long files = families.stream().mapToLong(family -> family.files().size()).sum();
        long cells = families.stream().mapToLong(TableExport.Family::cells).sum();
        System.out.println("exported " + table + " to " + out + ": " + families.size()
            + " families, " + files + " files, " + cells + " cells");
      }
      return 0;
    } catch (DirectoryLockedException e) {
      System.err.println("cellar export: " + e.getMessage() + "; if cellar serve holds it,"
          + " export through the server: --connect HOST:PORT");
      return 1;
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("cellar export: " + e.getMessage());
      return 1;
    }
  }

  private int exportThroughServer(CellarConfig config, List<byte[]> keys) throws IOException {
    try (CellarClient client = ServerConnect.open("cellar export", connect,
        ClientSettings.from(config), System.err)) {
      RemoteExport.Result result = client.exports().export(table, out, keys);
      result.progress().forEach(System.err::println);
      long files = result.families().stream().mapToLong(family -> family.files().size()).sum();
      long cells = result.families().stream().mapToLong(RemoteExport.Family::cells).sum();
      System.out.println("exported " + table + " to " + out + " (written by " + connect + "): "
          + result.families().size() + " families, " + files + " files, " + cells + " cells");
    }
    return 0;
  }
}
