package dev.cellar;

import java.util.SplittableRandom;

/**
 * Deletes of a random kind for randomized tests: one of HBase's four (a family, a family version,
 * all versions of a column, one version of a column), drawn after the caller drew the coordinates,
 * so that a test's seed replays the same sequence.
 */
public final class RandomDeletes {

  private RandomDeletes() {}

  /** A delete of {@code row} of a random kind at {@code family}, {@code qualifier}, {@code ts}. */
  public static Delete of(
      SplittableRandom random, byte[] row, byte[] family, byte[] qualifier, long ts) {
    Delete delete = new Delete(row);
    switch (random.nextInt(4)) {
      case 0 -> delete.addFamily(family, ts);
      case 1 -> delete.addFamilyVersion(family, ts);
      case 2 -> delete.addColumns(family, qualifier, ts);
      default -> delete.addColumn(family, qualifier, ts);
    }
    return delete;
  }
}
