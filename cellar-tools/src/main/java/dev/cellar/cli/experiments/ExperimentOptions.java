package dev.cellar.cli.experiments;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options every {@code cellar bench} experiment shares: where its files go, how much its data
 * sizes are multiplied by, and its random seed. A scale below 1 makes a smoke run: the data is
 * smaller than the experiment's question needs, and the default length of a timed run shrinks with
 * it, so that the run takes seconds to minutes.
 */
public final class ExperimentOptions {

  /** The shortest default run of a smoke run. */
  static final long SMOKE_RUN_MILLIS = 500;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "bench-results",
      description =
          "directory for the results (<experiment>.json, .csv and .html; default ${DEFAULT-VALUE})")
  Path out;

  @Option(
      names = "--scale",
      paramLabel = "F",
      defaultValue = "1",
      description =
          "multiplies"
              + " the data sizes: below 1 a smoke run (0.01: shorter runs too, marked as such in the"
              + " report), above 1 for a bigger machine (default ${DEFAULT-VALUE})")
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

  /** True below scale 1: a smoke run, whose report says so. */
  public boolean reduced() {
    return scale() < 1;
  }

  /** Why a run at {@code scale} below 1 is a smoke run, for its report. */
  public static String reducedReason(double scale) {
    return "--scale " + scale + " is below 1: the data is " + scale + " times the experiment's";
  }

  /**
   * The length of each timed run in milliseconds: {@code given} seconds, or by default {@code
   * defaultSeconds}, times the scale below scale 1 but never below {@value #SMOKE_RUN_MILLIS} ms.
   *
   * @param option the option's name, for the message refusing a length that is not above 0
   * @throws IllegalArgumentException naming {@code option} when {@code given} is not above 0
   */
  public long runMillis(String option, Double given, double defaultSeconds) {
    if (given != null) {
      if (!(given > 0) || given.isInfinite()) {
        throw new IllegalArgumentException(
            option + " must be a number of seconds above 0, was " + given);
      }
      return Math.round(given * 1000);
    }
    long full = Math.round(defaultSeconds * 1000);
    return reduced() ? Math.max(SMOKE_RUN_MILLIS, Math.round(full * scale())) : full;
  }

  public long seed() {
    if (seed == null) {
      seed = System.nanoTime();
    }
    return seed;
  }
}
