package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.ExperimentOptions;
import dev.cellar.cli.experiments.ExperimentRun;
import dev.cellar.cli.experiments.MemorySize;
import dev.cellar.cli.experiments.ServedDeploysOption;
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
 * ShowdownExperiment} and {@link Deploy}. The memory allotment defaults as {@link MemorySize} says;
 * {@code --scale} multiplies it, and with it the data, so the ratios hold ({@link Allotment}: at
 * least {@value ShowdownSettings#MIN_MEMORY} bytes). Below scale 1 it is a smoke run, with shorter
 * runs by default, and its report says so. Exit codes: 0 done, 1 the run failed, 2 bad options.
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

  private static final double DEFAULT_RUN_SECONDS = 10;

  @Spec CommandSpec spec;

  @Mixin ExperimentOptions experiment;

  @Mixin ServedDeploysOption served;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      description =
          "memory allotted to each"
              + " deploy's process, e.g. 1g or 768m, at least 16m (default: a sixteenth of this"
              + " machine's, at least 512m); --scale multiplies it")
  String memory;

  @Option(
      names = "--ratios",
      split = ",",
      defaultValue = "0.5,1.5,4.5",
      description = "database:RAM ratios (default ${DEFAULT-VALUE})")
  List<Double> ratios;

  @Option(
      names = "--deploys",
      split = ",",
      defaultValue = "LRU,SLAB,BUCKET_HEAP,BUCKET_OFFHEAP," + "BUCKET_TMPFS",
      description = "deploys to run: ${COMPLETION-CANDIDATES}")
  List<Deploy> deploys;

  @Option(
      names = "--clients",
      defaultValue = "5",
      description = "PE clients (default" + " ${DEFAULT-VALUE})")
  int clients;

  @Option(
      names = "--run-seconds",
      description =
          "length of each measured run (default 10;"
              + " below --scale 1, 10 times the scale, at least 0.5; the last of --runs is kept)")
  Double runSeconds;

  @Option(
      names = "--runs",
      defaultValue = "3",
      description = "measured runs per deploy and" + " ratio (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--tmpfs",
      defaultValue = "/dev/shm",
      description = "directory on tmpfs for" + " the file engine (default ${DEFAULT-VALUE})")
  Path tmpfs;

  @Override
  public Integer call() throws IOException {
    ShowdownSettings settings;
    try {
      if (!Files.isDirectory(tmpfs)) {
        throw new IllegalArgumentException("--tmpfs " + tmpfs + " is not a directory");
      }
      Allotment allotment =
          Allotment.of(
              memory,
              experiment.scale(),
              ShowdownSettings.MIN_MEMORY,
              "the least the showdown allots a deploy");
      settings =
          new ShowdownSettings(
              allotment,
              ratios,
              deploys,
              clients,
              0.01,
              experiment.runMillis("--run-seconds", runSeconds, DEFAULT_RUN_SECONDS),
              runs,
              tmpfs,
              experiment.seed(),
              served.host());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintStream err = System.err;
    err.printf(
        "cellar bench showdown: %s allotted per deploy; %d deploys x %d ratios, runs of"
            + " %.1f s, seed %d%n",
        settings.allotment().describe(),
        settings.deploys().size(),
        settings.ratios().size(),
        settings.runMillis() / 1000.0,
        settings.seed());
    return ExperimentRun.report(
        "cellar bench showdown",
        settings.smokeReasons(),
        experiment.out(),
        err,
        () -> ShowdownReport.of(settings, ShowdownExperiment.run(settings, err)));
  }
}
