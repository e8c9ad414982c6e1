package dev.cellar.cli.rocksdb;

import java.util.SplittableRandom;

/**
 * The rows the write scenario writes: uniform random rows among {@code count} rows numbered from
 * {@code firstRow} (past the loaded ones, so reads of the loaded rows stay valid), each column with
 * one of a few pre-made PE values chosen by its row and column number, so that making a value costs
 * the writer nothing and any row's expected values are known. Each writer thread draws from its own
 * generator, seeded by the run's seed and the thread: both stores get the same rows in the same
 * batches.
 *
 * @param values PE values of the run's value size; column {@code c} of row {@code n} gets {@code
 *     values[(n + c) % length]}
 */
record NewRows(RowShape shape, long firstRow, long count, long seed, byte[][] values) {

  /** {@code distinctValues} PE values of the shape's value size made from {@code seed}. */
  static NewRows after(RowShape shape, long loadedRows, long seed, int distinctValues) {
    RowValues generator = new RowValues(seed, shape);
    byte[][] values = new byte[distinctValues][];
    for (int i = 0; i < distinctValues; i++) {
      values[i] = generator.of(i, 0);
    }
    return new NewRows(shape, loadedRows, loadedRows, seed, values);
  }

  /** Thread {@code thread}'s sequence of rows. */
  Cursor cursor(int thread) {
    return new Cursor(this, thread);
  }

  /** One thread's rows, one at a time, with the key in a reused array. Not thread-safe. */
  static final class Cursor {
    private final NewRows rows;
    private final SplittableRandom random;
    private final byte[] key;
    private long current;

    private Cursor(NewRows rows, int thread) {
      this.rows = rows;
      this.random = new SplittableRandom(rows.seed * 1_000_003 + thread);
      this.key = new byte[rows.shape.keyLength()];
    }

    /** Moves to the next row and returns its key, in an array the next call reuses. */
    byte[] nextKey() {
      current = rows.firstRow + random.nextLong(rows.count);
      rows.shape.key(current, key);
      return key;
    }

    /** The value of the current row's column (shared: callers copy it, never change it). */
    byte[] value(int column) {
      return rows.values[(int) ((current + column) % rows.values.length)];
    }

    /** Every column's value of the current row, in column order (shared, as {@link #value}). */
    byte[][] values() {
      byte[][] all = new byte[rows.shape.columns()][];
      for (int column = 0; column < all.length; column++) {
        all[column] = value(column);
      }
      return all;
    }
  }
}
