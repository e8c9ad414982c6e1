package dev.cellar.cell;

import java.util.Random;

/** Seeds for randomized tests: one per run, overridable with {@code -Dcellar.test.seed=N}. */
final class TestSeeds {

  /** The system property that replays a run. */
  static final String PROPERTY = "cellar.test.seed";

  private TestSeeds() {}

  /** Returns the seed given by {@value #PROPERTY}, or a fresh one. */
  static long seed() {
    return Long.getLong(PROPERTY, System.nanoTime());
  }

  /** Returns the text to put in an assertion message so a failure can be replayed. */
  static String replay(long seed) {
    return "seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")";
  }

  /** Returns {@code length} random bytes drawn from the whole byte range. */
  static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
