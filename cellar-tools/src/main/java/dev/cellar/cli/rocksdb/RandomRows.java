package dev.cellar.cli.rocksdb;

import java.util.SplittableRandom;

/**
 * The rows one reader thread gets, the same sequence for both stores: uniform among the rows, drawn
 * from a generator seeded by the run's seed and the thread, with the key formatted into one reused
 * array.
 */
final class RandomRows {

  private final SplittableRandom random;
  private final long rows;
  private final RowShape shape;
  private final byte[] key;

  RandomRows(RowShape shape, long rows, long seed, int thread) {
    this.random = new SplittableRandom(seed * 1_000_003 + thread);
    this.rows = rows;
    this.shape = shape;
    this.key = new byte[shape.keyLength()];
  }

  /** The next row's key, in an array reused by the next call. */
  byte[] nextKey() {
    shape.key(random.nextLong(rows), key);
    return key;
  }
}
