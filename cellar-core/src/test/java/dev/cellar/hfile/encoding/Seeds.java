package dev.cellar.hfile.encoding;

import java.util.Random;

/**
 * Seeds for the randomized encoding tests: one per run, overridable with {@code
 * -Dcellar.test.seed=N}, and reported with every failure so the run can be replayed.
 */
final class Seeds {

  /** The system property that replays a run. */
  static final String PROPERTY = "cellar.test.seed";

  /** A test body that draws from a seeded {@link Random}. */
  interface Body {
    void run(Random random) throws Exception;
  }

  private Seeds() {}

  /** Returns the seed given by {@value #PROPERTY}, or a fresh one. */
  static long seed() {
    return Long.getLong(PROPERTY, System.nanoTime());
  }

  /** Runs {@code body} with a seeded random; any failure is rethrown naming the seed. */
  static void run(String what, Body body) {
    long seed = seed();
    try {
      body.run(new Random(seed));
    } catch (Throwable failure) {
      throw new AssertionError(
          what
              + " failed with seed "
              + seed
              + " (replay with -D"
              + PROPERTY
              + "="
              + seed
              + "): "
              + failure,
          failure);
    }
  }
}
