package dev.cellar.hfile.bloom;

/**
 * The size of one bloom chunk: its bit array in bytes, the number of hash functions and the number
 * of keys it takes before it is full. Immutable and thread-safe.
 *
 * <p>Computed exactly as HBase's {@code BloomFilterUtil.createBySize} does, in the same double
 * arithmetic and the same order of operations, so both sides cut chunks after the same key:
 *
 * <pre>
 *   byteSize  = foldable(hint * 8, maxFold)
 *   bitSize   = 8 * byteSize
 *   ideal     = floor(bitSize * (ln(2)^2 / -ln(err)))
 *   hashCount = ceil(ln(2) * floor(bitSize / ideal))
 *   maxKeys   = floor(-bitSize / hashCount * ln(1 - exp(ln(err) / hashCount)))
 *
 *   foldable(bits, f) = ceil(bits / 8) rounded up to a multiple of 2^f
 * </pre>
 *
 * <p>{@code err} is the float configuration value widened to double (for ROWCOL, the per-probe rate
 * of {@link BloomConfig#errorRateFor}). HBase's defaults (hint 131072, fold 7, err 0.01) give
 * 131072 bytes, 7 hashes and 109306 keys; ROWCOL's rate gives 8 hashes and 95069 keys. A sizing
 * that would hold no key, which HBase would crash on, is rejected.
 *
 * @param byteSize the bit array's size in bytes
 * @param hashCount the number of bit positions each key sets
 * @param maxKeys the number of keys after which the chunk is full
 */
public record ChunkSizing(int byteSize, int hashCount, int maxKeys) {

  private static final double LN2 = Math.log(2);
  private static final double LN2_SQUARED = LN2 * LN2;

  public ChunkSizing {
    if (byteSize < 1 || hashCount < 1 || maxKeys < 1) {
      throw new IllegalArgumentException(
          "bloom chunk sizing: expected byteSize, hashCount and maxKeys >= 1, found "
              + byteSize
              + ", "
              + hashCount
              + ", "
              + maxKeys);
    }
  }

  /**
   * The sizing of a first chunk for a byte-size hint, a maximum fold factor and an error rate.
   *
   * @throws IllegalArgumentException if the chunk would hold no key or need no hash function
   */
  public static ChunkSizing forHint(int byteSizeHint, int maxFold, double errorRate) {
    int byteSize = foldableByteSize(byteSizeHint * 8L, maxFold);
    long bitSize = byteSize * 8L;
    int idealMaxKeys = (int) (long) (bitSize * (LN2_SQUARED / -Math.log(errorRate)));
    if (idealMaxKeys < 1) {
      throw new IllegalArgumentException(
          "a bloom chunk of "
              + byteSize
              + " bytes holds no key at error rate "
              + errorRate
              + ": expected a larger chunk size");
    }
    int hashCount = (int) Math.ceil(LN2 * (bitSize / idealMaxKeys));
    if (hashCount < 1) {
      throw new IllegalArgumentException(
          "error rate " + errorRate + " is too high for a bloom filter: it needs no hash function");
    }
    double logMissPerHash = Math.log(1 - Math.exp(Math.log(errorRate) / hashCount));
    int maxKeys = (int) (long) (-bitSize * 1.0 / hashCount * logMissPerHash);
    return new ChunkSizing(byteSize, hashCount, maxKeys);
  }

  /**
   * {@code ceil(bitSize / 8)} rounded up to a multiple of {@code 2^foldFactor}, so that the chunk
   * can be halved {@code foldFactor} times.
   *
   * @throws IllegalArgumentException if the result does not fit an int, or the fold factor is not
   *     in 0..30
   */
  public static int foldableByteSize(long bitSize, int foldFactor) {
    if (foldFactor < 0 || foldFactor > 30) {
      throw new IllegalArgumentException("fold factor: expected 0..30, found " + foldFactor);
    }
    long byteSize = (bitSize + 7) / 8;
    long mask = (1L << foldFactor) - 1;
    if ((byteSize & mask) != 0) {
      byteSize = ((byteSize >> foldFactor) + 1) << foldFactor;
    }
    if (byteSize > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "bloom chunk of " + bitSize + " bits folded " + foldFactor + " times is too large");
    }
    return (int) byteSize;
  }
}
