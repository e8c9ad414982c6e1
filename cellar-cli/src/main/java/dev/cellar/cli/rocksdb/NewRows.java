package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.PeData;
import java.util.SplittableRandom;

/**
 * The rows the write scenario writes: uniform random rows among {@code count} rows numbered from
 * {@code firstRow} (past the loaded ones, so reads of the loaded rows stay valid), each with one of
 * a few pre-made PE values chosen by its number, so that making a value costs the writer nothing
 * and any row's expected value is known. Each writer thread draws from its own generator, seeded
 * by the run's seed and the thread: both stores get the same rows in the same batches.
 *
 * @param values PE values of the run's value size; row {@code n} gets {@code values[n % length]}
 */
record NewRows(long firstRow, long count, long seed, byte[][] values) {

  /** {@code distinctValues} PE values of {@code valueSize} bytes made from {@code seed}. */
  static NewRows after(long loadedRows, long seed, int valueSize, int distinctValues) {
    RowValues generator = new RowValues(seed, valueSize);
    byte[][] values = new byte[distinctValues][];
    for (int i = 0; i < distinctValues; i++) {
      values[i] = generator.of(i);
    }
    return new NewRows(loadedRows, loadedRows, seed, values);
  }

  /** Thread {@code thread}'s sequence of rows. */
  Cursor cursor(int thread) {
    return new Cursor(this, thread);
  }

  /** One thread's rows, one at a time, with the key in a reused array. Not thread-safe. */
  static final class Cursor {
    private final NewRows rows;
    private final SplittableRandom random;
    private final byte[] key = new byte[PeData.ROW_LENGTH];
    private long current;

    private Cursor(NewRows rows, int thread) {
      this.rows = rows;
      this.random = new SplittableRandom(rows.seed * 1_000_003 + thread);
    }

    /** Moves to the next row and returns its key, in an array the next call reuses. */
    byte[] nextKey() {
      current = rows.firstRow + random.nextLong(rows.count);
      PeData.format(current, key);
      return key;
    }

    /** The value of the current row (shared: callers copy it, never change it). */
    byte[] value() {
      return rows.values[(int) (current % rows.values.length)];
    }
  }
}
