package dev.cellar.cli.experiments;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options every {@code cellar bench} experiment shares: where its files go, how much its data
 * sizes are multiplied by, and its random seed.
 */
public final class ExperimentOptions {

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results", description =
      "directory for the results (<experiment>.json, .csv and .html; default ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--scale", paramLabel = "F", defaultValue = "1", description = "multiplies"
      + " the data sizes: 0.01 for a smoke run, above 1 for a bigger machine (default"
      + " ${DEFAULT-VALUE})")
  double scale;

  @Option(names = "--seed", description = "random seed (default: time based, printed)")
  Long seed;

  public Path out() {
    return out;
  }

  /**
   * The scale factor.
   *
   * @throws IllegalArgumentException when it is not above 0
   */
  public double scale() {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("--scale must be a number above 0, was " + scale);
    }
    return scale;
  }

  /** {@code value} scaled, never below {@code minimum}. */
  public long scaled(long value, long minimum) {
    return Math.max(minimum, Math.round(value * scale()));
  }

  public long seed() {
    if (seed == null) {
      seed = System.nanoTime();
    }
    return seed;
  }
}
