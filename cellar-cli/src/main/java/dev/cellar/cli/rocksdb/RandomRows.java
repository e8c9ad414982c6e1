package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.PeData;
import java.util.SplittableRandom;

/**
 * The rows one reader thread gets, the same sequence for both stores: uniform among the rows,
 * drawn from a generator seeded by the run's seed and the thread, with the key formatted into one
 * reused array.
 */
final class RandomRows {

  private final SplittableRandom random;
  private final long rows;
  private final byte[] key = new byte[PeData.ROW_LENGTH];

  RandomRows(long rows, long seed, int thread) {
    this.random = new SplittableRandom(seed * 1_000_003 + thread);
    this.rows = rows;
  }

  /** The next row's key, in an array reused by the next call. */
  byte[] nextKey() {
    PeData.format(random.nextLong(rows), key);
    return key;
  }
}
