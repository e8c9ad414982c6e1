package dev.cellar.cli.pe;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * HBase's {@code RandomDistribution.Zipf}, which PE's {@code --valueZipf} draws value sizes from:
 * integers in [min, max) with P(k) proportional to k^-sigma. The cumulative weights are kept for a
 * subset of points (a new point once k grows by more than {@code epsilon}), a draw finds its
 * interval by binary search and picks uniformly inside it.
 */
final class Zipf {

  private static final double DEFAULT_EPSILON = 0.001;

  private final RandomGenerator random;
  private final int[] points;
  private final double[] cumulative;

  Zipf(RandomGenerator random, int min, int max, double sigma) {
    if (max <= min || sigma <= 1) {
      throw new IllegalArgumentException(
          "Zipf needs min < max and sigma > 1, was [" + min + ", " + max + ") and " + sigma);
    }
    this.random = random;
    int[] k = new int[max - min + 1];
    double[] v = new double[max - min + 1];
    int count = 0;
    double sum = 0;
    int last = -1;
    for (int i = min; i < max; ++i) {
      sum += Math.exp(-sigma * Math.log(i));
      if (last == -1 || i * (1 - DEFAULT_EPSILON) > last) {
        k[count] = i;
        v[count++] = sum;
        last = i;
      }
    }
    if (last != max - 1) {
      k[count] = max - 1;
      v[count++] = sum;
    }
    v[count - 1] = 1.0;
    for (int i = count - 2; i >= 0; --i) {
      v[i] = v[i] / sum;
    }
    this.points = Arrays.copyOf(k, count);
    this.cumulative = Arrays.copyOf(v, count);
  }

  int next() {
    int index = Arrays.binarySearch(cumulative, random.nextDouble());
    index = index >= 0 ? index + 1 : -(index + 1);
    index = Math.min(index, points.length - 1);
    if (index == 0) {
      return points[0];
    }
    int ceiling = points[index];
    int lower = points[index - 1];
    return ceiling - random.nextInt(ceiling - lower);
  }
}
