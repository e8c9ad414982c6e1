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
 * per problem, {@code PROBLEM: <file> at offset <n>: <what>}, then exit code 1; or a summary of
 * what it verified and exit code 0. Changes nothing in the directory.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {"Verify a database offline: lock, table descriptors, manifests, every live",
        "HFile's checksums and cell order, log segments. One line per problem with file and",
        "offset; exit 1 if any. With the log elsewhere, give --wal-dir as the database has it."})
final class CheckCommand implements Callable<Integer> {

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
    return 1;
  }
}
