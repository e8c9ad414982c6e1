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
public record MissRatioCurve(
    long configuredBytes,
    long[] sizes,
    double[] hitRatios,
    double rate,
    long sampledAccesses,
    int trackedBlocks) {

  /** The point of the configured size. */
  public int configuredPoint() {
    return MissRatioCurveTracker.CONFIGURED_POINT;
  }
}
