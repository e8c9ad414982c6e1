package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.PeData;
import java.util.SplittableRandom;

/**
 * The values of each row: PE's data ({@link PeData#generateData}) from a generator seeded by the
 * row and the column, so that any row's expected values can be made again to check what a store
 * returns.
 */
final class RowValues {

  private final long seed;
  private final RowShape shape;

  RowValues(long seed, RowShape shape) {
    this.seed = seed;
    this.shape = shape;
  }

  /** The value of column {@code column} of row {@code row}. */
  byte[] of(long row, int column) {
    long mixed = seed ^ (row * 0x9E3779B97F4A7C15L) ^ (column * 0xC2B2AE3D27D4EB4FL);
    return PeData.generateData(new SplittableRandom(mixed), shape.valueSize());
  }

  /** Every column's value of row {@code row}, in column order. */
  byte[][] of(long row) {
    byte[][] values = new byte[shape.columns()][];
    for (int column = 0; column < values.length; column++) {
      values[column] = of(row, column);
    }
    return values;
  }

  RowShape shape() {
    return shape;
  }
}
