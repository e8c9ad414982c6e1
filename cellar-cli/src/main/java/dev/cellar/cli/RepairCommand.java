package dev.cellar.cli;

import dev.cellar.Cellar;
import dev.cellar.DatabaseRepair;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cellar repair DIR}: brings a damaged, closed database back so that it opens ({@link
 * DatabaseRepair}), printing each change on one line; with {@code --dry-run} only prints them.
 * Nothing is deleted: what is taken out of the way goes to {@code DIR/lost/<time>/}. Exit code 0
 * when repaired or nothing was to do, 1 when refused (no database there, held by another process,
 * not writable: nothing changed) or failed part way (the lines printed say how far it got); the one
 * line on standard error says which.
 */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Bring a damaged, closed database back so that it opens.",
      "Rebuilds damaged manifests from the HFiles present, sets aside unreadable files and"
          + " damaged log parts in DIR/lost/<time>/ with a note of why, keeps every log entry"
          + " before its damage, and writes what it did to REPORT.txt there. Deletes nothing.",
      "The database is DIR or --dir DIR, else hbase.rootdir (from --conf or -D).",
      "Example: cellar repair --dry-run /var/lib/cellar"
    },
    exitCodeList =
        "1:refused, nothing changed (no database there, in use, not writable), or"
            + " failed part way (the lines printed say how far it got)")
final class RepairCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "DIR",
      description = DatabaseOptions.ARGUMENT)
  String directory;

  @Option(names = "--dry-run", description = "print what would change, change nothing")
  boolean dryRun;

  @Mixin DatabaseOptions database;

  @Override
  public Integer call() {
    String location = database.location(directory);
    DatabaseRepair.Report report;
    try {
      report = Cellar.repair(location, database.config(), dryRun);
    } catch (IOException e) {
      throw new CommandFailure(e.getMessage());
    }
    PrintStream out = System.out;
    for (String step : report.steps()) {
      out.println((dryRun ? "WOULD: " : "DONE: ") + step);
    }
    if (report.steps().isEmpty()) {
      out.println("OK: " + location + ": nothing to repair");
    } else {
      out.println(
          report.steps().size()
              + " change(s) "
              + (dryRun ? "would be " : "")
              + "made in "
              + location
              + report.lost().map(lost -> "; set aside in " + lost).orElse(""));
    }
    return ExitCodes.DONE;
  }
}
