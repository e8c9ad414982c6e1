package dev.cellar.tools;

import dev.cellar.cli.CommandFailure;
import dev.cellar.cli.experiments.encoding.EncodingCommand;
import dev.cellar.cli.experiments.offheap.OffheapCommand;
import dev.cellar.cli.experiments.showdown.ShowdownCommand;
import dev.cellar.cli.rocksdb.RocksDbCompareCommand;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code cellar bench}: the project's benchmarks. */
@Command(
    name = "bench",
    description = "Run Cellar's benchmarks.",
    mixinStandardHelpOptions = true,
    subcommands = {
      BenchCommand.Jmh.class,
      RocksDbCompareCommand.class,
      EncodingCommand.class,
      ShowdownCommand.class,
      OffheapCommand.class
    })
final class BenchCommand {

  /**
   * {@code cellar bench jmh [regex...] [jmh options]}: runs the JMH microbenchmarks, with the GC
   * profiler on unless a profiler is named, so heap bytes per operation are always reported.
   */
  @Command(
      name = "jmh",
      description = {
        "Run JMH microbenchmarks (all, or those matching the regexes).",
        "Any JMH option may follow, e.g. -f 1 -wi 3 -i 5 -rf json -rff results.json.",
        "The GC profiler (-prof gc: heap bytes per op, GC time) is added unless -prof is given.",
        "Use 'cellar bench jmh -l' to list benchmarks and 'cellar bench jmh -h' for JMH's help."
      },
      exitCodeList = "1:the benchmarks failed, or JMH refused an option (its message says why)")
  static final class Jmh implements Runnable {

    @Unmatched List<String> arguments = new ArrayList<>();

    @Override
    public void run() {
      List<String> jmhArgs = new ArrayList<>(arguments);
      boolean listing = jmhArgs.contains("-l") || jmhArgs.contains("-lp") || jmhArgs.contains("-h");
      if (!listing && !jmhArgs.contains("-prof")) {
        jmhArgs.add("-prof");
        jmhArgs.add("gc");
      }
      try {
        org.openjdk.jmh.Main.main(jmhArgs.toArray(String[]::new));
      } catch (Exception e) {
        throw new CommandFailure("JMH failed: " + e.getMessage());
      }
    }
  }
}
