package dev.cellar.cache;

/**
 * A miss-ratio curve as {@link MissRatioCurveTracker} estimates it: at each cache size of {@code
 * sizes} (bytes, ascending, {@code configuredBytes} among them), the fraction of the data-block
 * lookups an LRU cache of that size would have served from memory. The ratios are NaN until a
 * sampled block has been read.
 *
 * @param rate the fraction of the blocks sampled when the curve was read
 * @param sampledAccesses the accesses to sampled blocks counted so far
 * @param trackedBlocks the sampled blocks tracked now
 */
public record MissRatioCurve(long configuredBytes, long[] sizes, double[] hitRatios, double rate,
    long sampledAccesses, int trackedBlocks) {

  /** The point of the configured size. */
  public int configuredPoint() {
    return MissRatioCurveTracker.CONFIGURED_POINT;
  }

  /**
   * The estimated hit ratio of a cache of {@code bytes}, interpolated between the two points
   * around it on a logarithmic size axis; the end point's ratio outside the curve.
   */
  public double hitRatioAt(long bytes) {
    if (bytes <= sizes[0]) {
      return hitRatios[0];
    }
    for (int k = 1; k < sizes.length; k++) {
      if (bytes <= sizes[k]) {
        double position = Math.log((double) bytes / sizes[k - 1])
            / Math.log((double) sizes[k] / sizes[k - 1]);
        return hitRatios[k - 1] + position * (hitRatios[k] - hitRatios[k - 1]);
      }
    }
    return hitRatios[sizes.length - 1];
  }
}
