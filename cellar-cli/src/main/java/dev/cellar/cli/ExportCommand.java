package dev.cellar.cli;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.TableExport;
import dev.cellar.store.RegionExport;
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
 * progress on stderr, one summary line on stdout. Exit codes: 0 done, 1 refused or failed (one
 * line on stderr saying why: no such table, output in use, database locked by a running server).
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Writes a point-in-time copy of a table as HBase's bulk load takes it: OUT/<family>/<hfile>,",
      "with each family's block size, encoding, compression and bloom filter, every version the",
      "family keeps, delete markers applied. Load it into HBase with",
      "  hbase completebulkload OUT TABLE",
      "Example: cellar export --dir ./data --table t --out /tmp/t-export --split-keys row5,row9"
    })
final class ExportCommand implements Callable<Integer> {

  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "the database directory")
  Path dir;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "the table")
  String table;

  @Option(names = "--out", required = true, paramLabel = "OUT",
      description = "the output directory: new or empty")
  Path out;

  @Option(names = "--split-keys", paramLabel = "KEYS|@FILE", description = "region boundaries to"
      + " cut files at: k1,k2,... or @FILE with one key per line (\\xNN for a byte)")
  String splitKeys;

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting")
  Map<String, String> properties = new LinkedHashMap<>();

  @Override
  public Integer call() {
    if (!Files.isDirectory(dir)) {
      System.err.println("cellar export: " + dir + " is not a database directory");
      return 1;
    }
    try {
      List<byte[]> keys = splitKeys == null ? List.of() : SplitKeys.parse(splitKeys);
      try (Cellar cellar = Cellar.open(dir,
          walDirOption.applyTo(CellarConfig.defaults().withAll(properties)))) {
        List<RegionExport.FamilyExport> families = TableExport.export(cellar, table, out, keys,
            System.err::println);
        long files = families.stream().mapToLong(family -> family.files().size()).sum();
        long cells = families.stream().mapToLong(RegionExport.FamilyExport::cells).sum();
        System.out.println("exported " + table + " to " + out + ": " + families.size()
            + " families, " + files + " files, " + cells + " cells");
      }
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("cellar export: " + e.getMessage());
      return 1;
    }
  }
}
