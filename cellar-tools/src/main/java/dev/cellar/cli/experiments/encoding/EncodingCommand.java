package dev.cellar.cli.experiments.encoding;

import dev.cellar.cli.ConfigOptions;
import dev.cellar.cli.experiments.ExperimentOptions;
import dev.cellar.cli.experiments.ExperimentRun;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cellar bench encoding}: the seed's comparison of block encodings and compression on its
 * Phoenix-shaped rows, extended to every pair of five encodings and five codecs and to Get latency
 * percentiles. See {@link EncodingExperiment} for what is measured and how. Exit codes: 0 done, 1
 * the run failed (the message says why), 2 bad options.
 */
@Command(
    name = "encoding",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compare block encodings and compressions on the seed's rows.",
      "Block encodings x compression on the seed's rows (an int key, two floats): footprint on"
          + " disk and in the block cache, full scan time and random Get latency, with the block"
          + " cache off and on.",
      "With --connect HOST:PORT, the tables are made, loaded and read in that cellar serve.",
      "Writes encoding.json, encoding.csv and encoding.html (charts, opens offline) to --out.",
      "Defaults take about 15 minutes on 2 cores; --scale 0.01 is a smoke run."
    })
public final class EncodingCommand implements Callable<Integer> {

  private static final long DEFAULT_ROWS = 2_000_000;
  private static final long DEFAULT_GETS = 5_000;

  @Spec CommandSpec spec;

  @Mixin ExperimentOptions experiment;

  @Option(
      names = "--encodings",
      split = ",",
      defaultValue = "NONE,PREFIX,DIFF,FAST_DIFF," + "ROW_INDEX_V1",
      description = "DATA_BLOCK_ENCODINGs to measure (default" + " ${DEFAULT-VALUE})")
  List<String> encodings;

  @Option(
      names = "--compressions",
      split = ",",
      defaultValue = "NONE,GZ,SNAPPY,LZ4,ZSTD",
      description = "COMPRESSIONs to measure (default ${DEFAULT-VALUE})")
  List<String> compressions;

  @Option(
      names = {"--block-size", "--blockSize"},
      defaultValue = "65536",
      description = "BLOCKSIZE (default" + " ${DEFAULT-VALUE})")
  int blockSize;

  @Option(
      names = "--connect",
      paramLabel = "HOST:PORT",
      description =
          "run through the"
              + " network against this running cellar serve: a table per pair, loaded and read through"
              + " Cellar's client, dropped after it")
  String connect;

  @Option(
      names = "--info-port",
      paramLabel = "PORT",
      defaultValue = "16030",
      description =
          "the"
              + " info server port of the --connect server, whose /jmx gives the footprints (default"
              + " ${DEFAULT-VALUE})")
  int infoPort;

  @Mixin ConfigOptions configuration;

  @Override
  public Integer call() throws IOException {
    EncodingSettings settings;
    try {
      settings =
          new EncodingSettings(
              encodings,
              compressions,
              experiment.scale(),
              experiment.scaled(DEFAULT_ROWS, 1000),
              experiment.scaled(DEFAULT_GETS, 100),
              blockSize,
              configuration.config(),
              experiment.seed(),
              connect,
              connect == null
                  ? null
                  : connect.substring(0, Math.max(0, connect.lastIndexOf(':'))) + ":" + infoPort);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintStream err = System.err;
    err.printf(
        "cellar bench encoding: %d x %d pairs, %,d rows each, seed %d%n",
        encodings.size(), compressions.size(), settings.rows(), settings.seed());
    return ExperimentRun.report(
        "cellar bench encoding",
        settings.smokeReasons(),
        experiment.out(),
        err,
        () -> EncodingReport.of(settings, EncodingExperiment.run(settings, err)));
  }
}
