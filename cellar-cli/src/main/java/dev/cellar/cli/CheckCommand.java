package dev.cellar.cli;

import dev.cellar.CellarConfig;
import dev.cellar.DatabaseCheck;
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
 * {@code cellar check DIR}: verifies a database offline ({@link DatabaseCheck}) and prints one line
 * per problem, {@code PROBLEM: <file> at offset <n>: <what>}, each saying what the next open does
 * about it and which command fixes it. Exit codes: 0 nothing wrong; 1 damage or leftovers found;
 * 2 the directory could not be checked (not a database, unreadable); 3 the database is open in
 * another process, so what it writes meanwhile may show as damage. Changes nothing in the
 * directory.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {"Verify a database offline, changing nothing.",
        "Reads the lock, table descriptors, manifests, every live HFile's checksums and cell",
        "order, and the log segments. One line per problem with file and",
        "offset, and what the next open does about it. Exit 0 OK, 1 problems found, 2 not",
        "checkable, 3 in use by another process. With the log elsewhere, give --wal-dir as the",
        "database has it."})
final class CheckCommand implements Callable<Integer> {

  /** The exit code when another process holds the database. */
  static final int IN_USE = 3;

  @Parameters(index = "0", paramLabel = "DIR",
      description = "the database directory: a path or a URI such as hdfs://host:8020/path")
  String directory;

  @Mixin WalDirOption walDirOption = new WalDirOption();

  @Option(names = "-D", paramLabel = "key=value", description = "a configuration setting (HDFS"
      + " client settings, hbase.wal.dir)")
  Map<String, String> properties = new LinkedHashMap<>();

  @Override
  public Integer call() {
    PrintStream out = System.out;
    DatabaseCheck.Report report;
    CellarConfig config = walDirOption.applyTo(CellarConfig.defaults().withAll(properties));
    try {
      report = DatabaseCheck.check(directory, config);
    } catch (IOException e) {
      System.err.println("cellar check: " + e.getMessage());
      return 2;
    }
    for (String problem : report.problems()) {
      out.println("PROBLEM: " + problem);
    }
    String summary = report.tables() + " table(s), " + report.manifestRecords()
        + " manifest record(s), " + report.hfiles() + " HFile(s) with " + report.cells()
        + " cell(s), " + report.segments() + " log segment(s) with " + report.entries()
        + " entr" + (report.entries() == 1 ? "y" : "ies") + "; lock "
        + report.lockHolder().map(holder -> "held by " + holder).orElse("free");
    if (report.problems().isEmpty()) {
      out.println("OK: " + directory + ": " + summary);
      return 0;
    }
    out.println(report.problems().size() + " problem(s) in " + directory + " (" + summary + ")");
    return report.lockHolder().isPresent() ? IN_USE : 1;
  }
}
