package dev.cellar.cli;

import dev.cellar.BulkLoad;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.io.StorageLocation;
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
      "Load HFiles into a table as HBase's completebulkload does.",
      "SRC holds one directory per family (<family>/<hfile>): a flushed HBase region's"
          + " directory, a snapshot's files, or the output of cellar export. Every file is"
          + " verified before anything changes; the table is created with the families found if"
          + " it does not exist. Files are copied unless --move.",
      "Example: cellar bulkload --dir ./data --table t /hbase/data/default/t/0f3c9a..."
    })
final class BulkLoadCommand implements Callable<Integer> {

  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "the database directory on the local file system (created if missing)")
  String dir;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "the table")
  String table;

  @Option(names = "--move", description = "move the files instead of copying them")
  boolean move;

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting")
  Map<String, String> properties = new LinkedHashMap<>();

  @Parameters(index = "0", paramLabel = "SRC", description = "the local directory of family"
      + " directories of HFiles")
  String source;

  @Override
  public Integer call() {
    if (!StorageLocation.isLocalPath(dir)) {
      System.err.println("cellar bulkload: --dir " + dir + ": not a local directory; cellar"
          + " bulkload loads into a database on the local file system");
      return 1;
    }
    if (!StorageLocation.isLocalPath(source)) {
      System.err.println("cellar bulkload: " + source + ": not a local directory; copy it to"
          + " one first (hdfs dfs -get)");
      return 1;
    }
    try (Cellar cellar = Cellar.open(Path.of(dir),
        walDirOption.applyTo(CellarConfig.defaults().withAll(properties)))) {
      BulkLoad.Report report = BulkLoad.load(cellar, table, Path.of(source), move,
          System.err::println);
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
