package dev.cellar.cache;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * An online miss-ratio curve of the block cache: which hit ratio its data-block lookups would have
 * at other sizes, from 1/8 to 4 times the configured one, estimated while the database runs by
 * SHARDS (spatially hashed sampling of the block keys, reuse distances over the sampled stream
 * scaled by the rate; {@link ReuseDistances}). It models an LRU cache charging each block what
 * Cellar's L1 charges: its {@link Cacheable#heapSize()} plus {@link LruBlockCache#ENTRY_OVERHEAD}.
 *
 * <p><b>Data blocks only.</b> Index and bloom blocks are few, read by nearly every lookup and large
 * (a bloom chunk is up to 128 KiB): one of them sampled would add its bytes divided by the rate to
 * every reuse distance, a variance no sample of data blocks has. So the curve follows the data
 * blocks (of a size set by the family's BLOCKSIZE) and assumes the others stay cached, as a tiered
 * cache keeps them in its L1 apart from the data; in a single LRU they take a little of the
 * configured size, by which the curve is optimistic.
 *
 * <p><b>Hot path.</b> {@link #access} is called by the block loader for every lookup of a data
 * block (so the curve predicts HBase's {@code blockCacheDataHitCount} over the data lookups). An
 * access to a block that is not sampled costs one hash of the key and one compare with a plain read
 * of a volatile field: no lock, no allocation. A sampled access (the sampled fraction of the
 * blocks, and so about as much of the accesses) takes a lock and updates the tracker in {@code
 * O(log n)} without allocating; every few thousand of them one also renumbers the tracked blocks in
 * time linear in their number.
 *
 * <p><b>Memory.</b> At most {@code maxBlocks} blocks are tracked (fixed-size SHARDS: the rate falls
 * when more would be), about 80 bytes each, allocated when the tracker is made.
 *
 * <p><b>Concurrency.</b> One {@link ReentrantLock} guards the {@link ReuseDistances}; {@link
 * #threshold} is its threshold, republished after each sampled access so that the hot path reads it
 * without the lock. A reader racing a fall of the threshold may take the lock for a block no longer
 * sampled, which the locked code then ignores.
 */
public final class MissRatioCurveTracker {

  /** Whether a database with a block cache tracks the curve (default true). */
  public static final String ENABLED_KEY = "cellar.blockcache.curve.enabled";

  /** The initial fraction of the blocks sampled (default {@value #DEFAULT_RATE}). */
  public static final String RATE_KEY = "cellar.blockcache.curve.sample.rate";

  /** The most blocks tracked at once (default {@value #DEFAULT_MAX_BLOCKS}). */
  public static final String MAX_BLOCKS_KEY = "cellar.blockcache.curve.max.blocks";

  public static final double DEFAULT_RATE = 0.01;
  public static final int DEFAULT_MAX_BLOCKS = 8192;

  /** Points per octave of cache size. */
  static final int POINTS_PER_OCTAVE = 6;

  /** The smallest size as a power of two of the configured size: 1/8. */
  static final int FIRST_OCTAVE = -3;

  /** The largest size as a power of two of the configured size: 4. */
  static final int LAST_OCTAVE = 2;

  /** The index of the configured size among the points. */
  public static final int CONFIGURED_POINT = -FIRST_OCTAVE * POINTS_PER_OCTAVE;

  private final long configuredBytes;
  private final long[] points;
  private final ReentrantLock lock = new ReentrantLock();
  private final ReuseDistances distances;
  private final LongSupplier accesses;
  private volatile long threshold;

  /**
   * @param configuredBytes the cache's configured capacity, the curve's 1x
   * @param rate the initial fraction of the blocks sampled, in (0, 1]
   * @param maxBlocks the most blocks tracked at once (the rate falls to stay within it)
   * @param accesses how many accesses {@link #access} has been shown, sampled or not (the cache's
   *     data-block lookups), for SHARDS's adjustment of the sampled counts; null for none
   */
  public MissRatioCurveTracker(
      long configuredBytes, double rate, int maxBlocks, LongSupplier accesses) {
    if (configuredBytes <= 0) {
      throw new IllegalArgumentException(
          "a curve needs a cache size above 0, was " + configuredBytes);
    }
    this.configuredBytes = configuredBytes;
    this.accesses = accesses;
    this.points = pointsAround(configuredBytes);
    this.distances = new ReuseDistances(points, rate, maxBlocks);
    this.threshold = distances.threshold();
  }

  /**
   * The tracker {@code settings} ask for, for a cache of {@code configuredBytes} whose data-block
   * lookups number {@code accesses}; empty when the curve is turned off.
   *
   * @throws InvalidConfigException naming the key of a value out of range
   */
  public static Optional<MissRatioCurveTracker> from(
      Settings settings, long configuredBytes, LongSupplier accesses) {
    if (!settings.getBoolean(ENABLED_KEY, true)) {
      return Optional.empty();
    }
    double rate = settings.getDouble(RATE_KEY, DEFAULT_RATE);
    if (!(rate > 0 && rate <= 1)) {
      throw new InvalidConfigException(
          RATE_KEY, String.valueOf(rate), "must be above 0 and at most 1");
    }
    int maxBlocks = settings.getInt(MAX_BLOCKS_KEY, DEFAULT_MAX_BLOCKS);
    if (maxBlocks < 16 || maxBlocks > 1 << 24) {
      throw new InvalidConfigException(
          MAX_BLOCKS_KEY, String.valueOf(maxBlocks), "must be from 16 to 16777216");
    }
    return Optional.of(new MissRatioCurveTracker(configuredBytes, rate, maxBlocks, accesses));
  }

  /** The curve's sizes: 1/8x to 4x of {@code configuredBytes}, six to an octave, 1x among them. */
  static long[] pointsAround(long configuredBytes) {
    int count = (LAST_OCTAVE - FIRST_OCTAVE) * POINTS_PER_OCTAVE + 1;
    long[] sizes = new long[count];
    for (int k = 0; k < count; k++) {
      sizes[k] =
          Math.round(configuredBytes * Math.pow(2, FIRST_OCTAVE + (double) k / POINTS_PER_OCTAVE));
    }
    return sizes;
  }

  /**
   * Counts one lookup of the block at {@code offset} of file {@code fileId} that found or loaded
   * {@code block}: one hash and a compare unless the block is sampled.
   */
  public void access(long fileId, long offset, Cacheable block) {
    long hash = hash(fileId, offset);
    if (hash < threshold) {
      recordSampled(hash, block);
    }
  }

  private void recordSampled(long hash, Cacheable block) {
    record(
        hash, (int) Math.min(Integer.MAX_VALUE, block.heapSize() + LruBlockCache.ENTRY_OVERHEAD));
  }

  private void record(long hash, int weight) {
    lock.lock();
    try {
      distances.access(hash, weight);
      threshold = distances.threshold();
    } finally {
      lock.unlock();
    }
  }

  /**
   * A 62-bit hash of a block's key (SplitMix64's finalizer over the file id and offset), uniform
   * enough that a threshold on it samples a fraction of the blocks independent of their layout.
   */
  static long hash(long fileId, long offset) {
    long z = fileId * 0x9E3779B97F4A7C15L + offset;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return (z ^ (z >>> 31)) >>> 2;
  }

  public long configuredBytes() {
    return configuredBytes;
  }

  /** The curve as it stands. */
  public MissRatioCurve curve() {
    double[] ratios = new double[points.length];
    long shown = accesses == null ? -1 : accesses.getAsLong();
    lock.lock();
    try {
      distances.hitRatios(shown, ratios);
      return new MissRatioCurve(
          configuredBytes,
          points.clone(),
          ratios,
          distances.rate(),
          distances.sampledAccesses(),
          distances.trackedBlocks());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Counts an access as {@link #access} does, to a block of {@code hash} weighing {@code weight}.
   */
  void access(long hash, int weight) {
    if (hash < threshold) {
      record(hash, weight);
    }
  }
}
