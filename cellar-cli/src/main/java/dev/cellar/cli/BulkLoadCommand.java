package dev.cellar.cli;

import dev.cellar.BulkLoad;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cellar bulkload}: loads a directory of HFiles into a table as HBase's {@code
 * completebulkload} does ({@link BulkLoad}), progress on stderr, one summary line on stdout.
 * Exit codes: 0 loaded, 1 refused or failed (one line on stderr naming the file and what was
 * wrong; the table is as it was).
 */
@Command(
    name = "bulkload",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Loads HFiles into a table as HBase's completebulkload does. SRC holds one directory per",
      "family (<family>/<hfile>): a flushed HBase region's directory, a snapshot's files, or the",
      "output of cellar export. Every file is verified before anything changes; the table is",
      "created with the families found if it does not exist. Files are copied unless --move.",
      "Example: cellar bulkload --dir ./data --table t /hbase/data/default/t/0f3c9a..."
    })
final class BulkLoadCommand implements Callable<Integer> {

  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "the database directory (created if missing)")
  Path dir;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "the table")
  String table;

  @Option(names = "--move", description = "move the files instead of copying them")
  boolean move;

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting")
  Map<String, String> properties = new LinkedHashMap<>();

  @Parameters(index = "0", paramLabel = "SRC", description = "the directory of family"
      + " directories of HFiles")
  Path source;

  @Override
  public Integer call() {
    try (Cellar cellar = Cellar.open(dir,
        walDirOption.applyTo(CellarConfig.defaults().withAll(properties)))) {
      BulkLoad.Report report = BulkLoad.load(cellar, table, source, move, System.err::println);
      System.out.println("loaded " + report.cells() + " cells in " + report.files().values()
          .stream().mapToInt(Integer::intValue).sum() + " files " + report.files() + " into "
          + report.table() + (report.created() ? " (created)" : "") + " at sequence id "
          + report.sequenceId());
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("cellar bulkload: " + e.getMessage());
      return 1;
    }
  }
}
