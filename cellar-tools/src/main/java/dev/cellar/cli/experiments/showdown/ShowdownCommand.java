package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.ExperimentOptions;
import dev.cellar.cli.experiments.MemorySize;
import dev.cellar.cli.experiments.ServedDeploysOption;
import dev.cellar.cli.experiments.report.ExperimentReport;
import dev.cellar.cli.experiments.report.Machine;
import dev.cellar.cli.experiments.report.ReportWriter;
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
 * {@code cellar bench showdown}: the seed's BlockCache showdown on this machine. See {@link
 * ShowdownExperiment} and {@link Deploy}. The memory allotment defaults as {@link MemorySize}
 * says; {@code --scale} multiplies it, and with it the data, so the ratios hold. Exit codes: 0
 * done, 1 the run failed, 2 bad options.
 */
@Command(
    name = "showdown",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compare block cache deploys on PE randomRead.",
      "The BlockCache showdown: LRU, BucketCache offheap, heap and file on tmpfs and a"
          + " SlabCache-like deploy, each in its own JVM sized as the seed's configuration table,"
          + " at database:RAM ratios 0.5, 1.5 and 4.5; PE randomRead with 5 clients.",
      "With --connect, each deploy is a cellar serve of its own, read through Cellar's client.",
      "Writes showdown.json, showdown.csv and showdown.html (charts, opens offline) to --out."
    })
public final class ShowdownCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ExperimentOptions experiment;

  @Mixin ServedDeploysOption served;

  @Option(names = "--memory", paramLabel = "SIZE", description = "memory allotted to each"
      + " deploy's process, e.g. 1g or 768m (default: a sixteenth of this machine's, at least"
      + " 512m)")
  String memory;

  @Option(names = "--ratios", split = ",", defaultValue = "0.5,1.5,4.5", description =
      "database:RAM ratios (default ${DEFAULT-VALUE})")
  List<Double> ratios;

  @Option(names = "--deploys", split = ",", defaultValue = "LRU,SLAB,BUCKET_HEAP,BUCKET_OFFHEAP,"
      + "BUCKET_TMPFS", description = "deploys to run: ${COMPLETION-CANDIDATES}")
  List<Deploy> deploys;

  @Option(names = "--clients", defaultValue = "5", description = "PE clients (default"
      + " ${DEFAULT-VALUE})")
  int clients;

  @Option(names = "--run-seconds", defaultValue = "10", description = "length of each measured"
      + " run (default ${DEFAULT-VALUE}; the last of --runs is kept)")
  double runSeconds;

  @Option(names = "--runs", defaultValue = "3", description = "measured runs per deploy and"
      + " ratio (default ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--tmpfs", defaultValue = "/dev/shm", description = "directory on tmpfs for"
      + " the file engine (default ${DEFAULT-VALUE})")
  Path tmpfs;

  @Override
  public Integer call() throws IOException {
    ShowdownSettings settings;
    try {
      if (!Files.isDirectory(tmpfs)) {
        throw new IllegalArgumentException("--tmpfs " + tmpfs + " is not a directory");
      }
      long allotment = Math.round(MemorySize.parseOrDefault(memory) * experiment.scale());
      settings = new ShowdownSettings(allotment, ratios, deploys, clients, 0.01,
          Math.round(runSeconds * 1000), runs, tmpfs, experiment.seed(), served.host());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintStream err = System.err;
    err.printf("cellar bench showdown: %,d MiB per deploy, %d deploys x %d ratios, seed %d%n",
        settings.memory() >> 20, deploys.size(), ratios.size(), settings.seed());
    ExperimentReport report;
    try {
      report = ShowdownReport.of(settings, ShowdownExperiment.run(settings, err));
    } catch (IOException | IllegalStateException e) {
      err.println("cellar bench showdown: " + e.getMessage());
      return 1;
    }
    err.println("cellar bench showdown: wrote "
        + ReportWriter.write(report, Machine.current(), experiment.out()));
    return 0;
  }
}
