package dev.cellar.tools;

import dev.cellar.cli.CellarCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cellar demo}: the embedded PerformanceEvaluation on Cellar's defaults, sized for a first
 * run. It runs {@code cellar pe --load randomRead}: sequentialWrite of the rows into a temporary
 * database (through the write-ahead log, then a flush), then random gets of those rows from the
 * same number of threads, and prints both phases' figures.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Run a short PerformanceEvaluation on a temporary embedded database.",
      "Writes rows (sequentialWrite), then reads them back at random (randomRead), on"
          + " Cellar's defaults.",
      "Same as: cellar pe --load --rows <rows / threads> randomRead <threads>."
    })
final class DemoCommand implements Callable<Integer> {

  @Option(
      names = "--rows",
      defaultValue = "100000",
      description = "rows in all (default ${DEFAULT-VALUE})")
  long rows;

  @Option(
      names = {"--value-size", "--valueSize"},
      defaultValue = "1000",
      description = "value bytes (default ${DEFAULT-VALUE})")
  int valueSize;

  @Option(
      names = "--threads",
      defaultValue = "2",
      description = "writer and reader threads (default ${DEFAULT-VALUE})")
  int threads;

  @Option(names = "--seed", description = "random seed (default: time based, printed)")
  Long seed;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (threads < 1 || rows < threads || valueSize < 1) {
      throw new ParameterException(
          spec.commandLine(),
          "--threads and --value-size"
              + " must be at least 1 and --rows at least --threads, were "
              + threads
              + ", "
              + valueSize
              + " and "
              + rows);
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "pe",
                "--load",
                "--rows",
                Long.toString(rows / threads),
                "--valueSize",
                Integer.toString(valueSize)));
    if (seed != null) {
      args.addAll(List.of("--seed", seed.toString()));
    }
    args.addAll(List.of("randomRead", Integer.toString(threads)));
    System.out.printf("Cellar demo: cellar %s%n", String.join(" ", args));
    return CellarCommand.commandLine().execute(args.toArray(String[]::new));
  }
}
