package dev.cellar.cli.experiments.offheap;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.ExperimentOptions;
import dev.cellar.cli.experiments.ExperimentRun;
import dev.cellar.cli.experiments.ServedDeploysOption;
import dev.cellar.cli.experiments.showdown.YcsbRecords;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cellar bench offheap}: the off-heap read path seed's PE tests on this machine. See {@link
 * OffheapExperiment}. PE's table is 25% of the memory allotment ({@code --memory}, as the
 * showdown's) and the YCSB table 15%, so both fit in either deploy's cache; {@code --scale}
 * multiplies the allotment and so both ({@link Allotment}: at least 40 MiB, so that PE's table
 * holds a range scan's 10,000 rows). Below scale 1 it is a smoke run, with shorter runs by default,
 * and its report says so. Exit codes: 0 done, 1 the run failed, 2 bad options.
 */
@Command(
    name = "offheap",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compare the off-heap read path with the on-heap one.",
      "The off-heap read path (BucketCache offheap, small heap) against the on-heap one (LRU,"
          + " large heap), each in its own JVM: PE randomRead, multi-gets of 100 rows, range"
          + " scans of 10,000 rows (all filtered out on the server, or 10%% returned) and YCSB C"
          + " and E (scans) at several thread counts.",
      "With --connect, each deploy is a cellar serve of its own, read through Cellar's client.",
      "Writes offheap.json, offheap.csv and offheap.html (charts, opens offline) to --out."
    })
public final class OffheapCommand implements Callable<Integer> {

  /** PE's table and the YCSB table: 40% of the allotment together, as the table was alone. */
  private static final double PE_SHARE = 0.25;

  private static final double YCSB_SHARE = 0.15;
  private static final double DEFAULT_RUN_SECONDS = 8;

  @Spec CommandSpec spec;

  @Mixin ExperimentOptions experiment;

  @Mixin ServedDeploysOption served;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      description =
          "memory allotted to each"
              + " deploy's process, e.g. 1g, at least 40m (default: a sixteenth of this machine's, at"
              + " least 512m); --scale multiplies it")
  String memory;

  @Option(
      names = "--threads",
      split = ",",
      defaultValue = "1,2,4,8",
      description = "thread" + " counts (default ${DEFAULT-VALUE})")
  List<Integer> threads;

  @Option(
      names = "--run-seconds",
      description =
          "length of each measured run (default 8;"
              + " below --scale 1, 8 times the scale, at least 0.5)")
  Double runSeconds;

  @Option(
      names = "--runs",
      defaultValue = "2",
      description = "runs per phase, the last kept" + " (default ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--tmpfs", defaultValue = "/dev/shm", hidden = true)
  Path tmpfs;

  @Override
  public Integer call() throws IOException {
    OffheapSettings settings;
    try {
      Allotment allotment =
          Allotment.of(
              memory,
              experiment.scale(),
              OffheapSettings.MIN_MEMORY,
              "PE's table, a quarter of it, must hold a range scan's 10,000 rows");
      long rows = Math.round(allotment.bytes() * PE_SHARE / 1032);
      long records = Math.round(allotment.bytes() * YCSB_SHARE / YcsbRecords.RECORD_BYTES);
      settings =
          new OffheapSettings(
              allotment,
              rows,
              records,
              threads,
              experiment.runMillis("--run-seconds", runSeconds, DEFAULT_RUN_SECONDS),
              runs,
              tmpfs,
              experiment.seed(),
              served.host());
      if (!Files.isDirectory(tmpfs)) {
        throw new IllegalArgumentException("--tmpfs " + tmpfs + " is not a directory");
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintStream err = System.err;
    err.printf(
        "cellar bench offheap: %s allotted per deploy; %,d PE rows, %,d YCSB records,"
            + " threads %s, runs of %.1f s, seed %d%n",
        settings.allotment().describe(),
        settings.rows(),
        settings.ycsbRecords(),
        threads,
        settings.runMillis() / 1000.0,
        settings.seed());
    return ExperimentRun.report(
        "cellar bench offheap",
        settings.smokeReasons(),
        experiment.out(),
        err,
        () -> OffheapReport.of(settings, OffheapExperiment.run(settings, err)));
  }
}
