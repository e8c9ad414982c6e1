package dev.cellar.hfile.bloom;

/**
 * Seeds for randomized bloom tests: one per test, overridable with {@code -Dcellar.test.seed=N}.
 */
final class BloomTestSeeds {

  static final String PROPERTY = "cellar.test.seed";

  private BloomTestSeeds() {}

  static long seed() {
    return Long.getLong(PROPERTY, System.nanoTime());
  }

  /** The text to put in an assertion message so a failure can be replayed. */
  static String replay(long seed) {
    return "seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")";
  }
}
