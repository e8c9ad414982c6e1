package dev.cellar.cli;

import dev.cellar.BulkLoad;
import dev.cellar.Cellar;
import dev.cellar.io.StorageLocation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cellar bulkload}: loads a directory of HFiles into a table as HBase's {@code
 * completebulkload} does ({@link BulkLoad}), progress on stderr, one summary line on stdout. Exit
 * code 1 when refused or failed, with one line on stderr naming the file and what was wrong; the
 * table is then as it was. The database is on the local file system, made if missing.
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
      "The database is --dir DIR, else hbase.rootdir (from --conf or -D), on the local file"
          + " system; it is made if missing.",
      "Example: cellar bulkload --dir ./data --table t /hbase/data/default/t/0f3c9a..."
    },
    exitCodeList =
        "1:refused or failed (one line on standard error names the file and what was"
            + " wrong; the table is as it was)")
final class BulkLoadCommand implements Callable<Integer> {

  @Mixin DatabaseOptions database;

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "the table")
  String table;

  @Option(names = "--move", description = "move the files instead of copying them")
  boolean move;

  @Parameters(
      index = "0",
      paramLabel = "SRC",
      description = "the local directory of family" + " directories of HFiles")
  String source;

  @Override
  public Integer call() {
    String location = database.location(null);
    if (!StorageLocation.isLocalPath(location)) {
      throw new CommandFailure(
          "--dir "
              + location
              + ": not a local directory; cellar bulkload"
              + " loads into a database on the local file system");
    }
    if (!StorageLocation.isLocalPath(source)) {
      throw new CommandFailure(
          source + ": not a local directory; copy it to one first (hdfs dfs" + " -get)");
    }
    try (Cellar cellar = Cellar.open(Path.of(location), database.config())) {
      BulkLoad.Report report =
          BulkLoad.load(cellar, table, Path.of(source), move, System.err::println);
      System.out.println(
          "loaded "
              + report.cells()
              + " cells in "
              + report.files().values().stream().mapToInt(Integer::intValue).sum()
              + " files "
              + report.files()
              + " into "
              + report.table()
              + (report.created() ? " (created)" : "")
              + " at sequence id "
              + report.sequenceId());
      return ExitCodes.DONE;
    } catch (IOException | IllegalArgumentException e) {
      throw new CommandFailure(e.getMessage());
    }
  }
}
