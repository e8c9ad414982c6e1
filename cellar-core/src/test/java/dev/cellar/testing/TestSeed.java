package dev.cellar.testing;

/**
 * The seed of one randomized test, handed to it by {@link TestSeedExtension}: a test declares a
 * {@code TestSeed} parameter and derives its random streams from {@link #value()}.
 *
 * <p>Its text, {@code seed N (rerun: -Dcellar.test.seed=N)}, says how to run the test again with
 * the same seed; the extension prints it as the test starts and adds it to the test's failure.
 */
public record TestSeed(long value) {

  /** The system property that fixes the seed of every test; unset, each test draws its own. */
  public static final String PROPERTY = "cellar.test.seed";

  @Override
  public String toString() {
    return "seed " + value + " (rerun: -D" + PROPERTY + "=" + value + ")";
  }
}
