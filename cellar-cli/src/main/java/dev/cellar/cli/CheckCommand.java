package dev.cellar.cli;

import dev.cellar.DatabaseCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code cellar check DIR}: verifies a database offline ({@link DatabaseCheck}) and prints one line
 * per problem, {@code PROBLEM: <file> at offset <n>: <what>}, each saying what the next open does
 * about it and which command fixes it. Exit code 0 when nothing is wrong, 1 when anything is
 * (damage, leftovers, the lock held by another process, whose writes meanwhile may show as damage)
 * or the directory could not be checked. Changes nothing in the directory.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Verify a database offline, changing nothing.",
      "Reads the lock, table descriptors, manifests, every live HFile's checksums and cell"
          + " order, and the log segments, and prints one line per problem with its file and"
          + " offset and what the next open does about it. A database open in another process"
          + " is checked too, its lock reported as a problem: what that process writes"
          + " meanwhile may show as damage. With the log elsewhere, give --wal-dir as the"
          + " database has it.",
      "The database is DIR or --dir DIR, else hbase.rootdir (from --conf or -D).",
      "Example: cellar check /var/lib/cellar"
    },
    exitCodeList =
        "1:problems found (one PROBLEM line each), or the database could not be"
            + " checked (one line on standard error says why)")
final class CheckCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "DIR",
      description = DatabaseOptions.ARGUMENT)
  String directory;

  @Mixin DatabaseOptions database;

  @Override
  public Integer call() {
    String location = database.location(directory);
    DatabaseCheck.Report report;
    try {
      report = DatabaseCheck.check(location, database.config());
    } catch (IOException e) {
      throw new CommandFailure(e.getMessage());
    }
    PrintStream out = System.out;
    for (String problem : report.problems()) {
      out.println("PROBLEM: " + problem);
    }
    String summary =
        report.tables()
            + " table(s), "
            + report.manifestRecords()
            + " manifest record(s), "
            + report.hfiles()
            + " HFile(s) with "
            + report.cells()
            + " cell(s), "
            + report.segments()
            + " log segment(s) with "
            + report.entries()
            + " entr"
            + (report.entries() == 1 ? "y" : "ies")
            + "; lock "
            + report.lockHolder().map(holder -> "held by " + holder).orElse("free");
    if (report.problems().isEmpty()) {
      out.println("OK: " + location + ": " + summary);
      return ExitCodes.DONE;
    }
    out.println(report.problems().size() + " problem(s) in " + location + " (" + summary + ")");
    return ExitCodes.FAILED;
  }
}
