package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.PeData;
import java.util.SplittableRandom;

/**
 * The value of each row: PE's data ({@link PeData#generateData}) from a generator seeded by the
 * row, so that any row's expected value can be made again to check what a store returns.
 */
final class RowValues {

  private final long seed;
  private final int valueSize;

  RowValues(long seed, int valueSize) {
    this.seed = seed;
    this.valueSize = valueSize;
  }

  byte[] of(long row) {
    return PeData.generateData(new SplittableRandom(seed ^ (row * 0x9E3779B97F4A7C15L)),
        valueSize);
  }

  int valueSize() {
    return valueSize;
  }
}
