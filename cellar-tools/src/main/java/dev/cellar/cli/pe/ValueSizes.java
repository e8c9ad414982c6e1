package dev.cellar.cli.pe;

import java.util.random.RandomGenerator;

/**
 * How long each value PE writes or filters for is, as PE's {@code getValueLength}: the value size
 * itself, uniform in [0, value size) with {@code --valueRandom}, or Zipf-distributed in [1, value
 * size) with sigma 1.2 with {@code --valueZipf}. One instance per thread.
 */
interface ValueSizes {

  int next();

  /** The sizes {@code options} ask for, drawn from {@code random}. */
  static ValueSizes of(PeOptions options, RandomGenerator random) {
    int size = options.valueSize();
    if (options.valueRandom()) {
      return () -> random.nextInt(size);
    }
    if (options.valueZipf()) {
      Zipf zipf = new Zipf(random, 1, size, 1.2);
      return zipf::next;
    }
    return () -> size;
  }
}
