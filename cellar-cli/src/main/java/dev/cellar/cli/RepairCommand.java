package dev.cellar.cli;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.DatabaseRepair;
import dev.cellar.io.DirectoryLockedException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cellar repair DIR}: brings a damaged, closed database back so that it opens ({@link
 * DatabaseRepair}), printing each change on one line; with {@code --dry-run} only prints them.
 * Nothing is deleted: what is taken out of the way goes to {@code DIR/lost/<time>/}. Exit codes: 0
 * repaired or nothing to do; 1 the repair failed part way (the lines printed say how far it got);
 * 2 refused, nothing changed (no database there, held by another process, not writable).
 */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    description = {"Bring a damaged, closed database back so that it opens.",
        "Rebuilds damaged manifests from the HFiles present, sets aside unreadable files and",
        "damaged log parts in DIR/lost/<time>/ with a note of why, keeps every log entry before",
        "its damage. Deletes nothing. Exit 0 done, 1 failed part way, 2 refused (nothing",
        "changed)."})
final class RepairCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "DIR",
      description = "the database directory: a path or a URI such as hdfs://host:8020/path")
  String directory;

  @Option(names = "--dry-run", description = "print what would change, change nothing")
  boolean dryRun;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting (HDFS"
      + " client settings, hbase.wal.dir)")
  Map<String, String> properties = new LinkedHashMap<>();

  @Override
  public Integer call() {
    PrintStream out = System.out;
    CellarConfig config = walDirOption.applyTo(CellarConfig.defaults().withAll(properties));
    DatabaseRepair.Report report;
    try {
      report = Cellar.repair(directory, config, dryRun);
    } catch (IOException e) {
      System.err.println("cellar repair: " + e.getMessage());
      return e instanceof DirectoryLockedException
          || String.valueOf(e.getMessage()).contains("nothing was changed") ? 2 : 1;
    }
    String verb = dryRun ? "would be " : "";
    for (String step : report.steps()) {
      out.println((dryRun ? "WOULD: " : "DONE: ") + step);
    }
    if (report.steps().isEmpty()) {
      out.println("OK: " + directory + ": nothing to repair");
    } else {
      out.println(report.steps().size() + " change(s) " + verb + "made in " + directory
          + report.lost().map(lost -> "; set aside in " + lost).orElse(""));
    }
    return 0;
  }
}
