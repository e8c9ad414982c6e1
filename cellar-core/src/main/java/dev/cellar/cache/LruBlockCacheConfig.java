package dev.cellar.cache;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;

/**
 * The settings of an {@link LruBlockCache}, under HBase's keys and defaults.
 *
 * <p>Capacity is {@code hfile.block.cache.memory.size} in bytes ({@code "10g"} style suffixes
 * accepted) when set above 0, otherwise {@code hfile.block.cache.size} (default 0.4) times the
 * maximum heap. The three priority shares must sum to 1; the min factor must be below the
 * acceptable factor, both below 1; the hard capacity limit factor must be at least 1. A violation
 * throws {@link InvalidConfigException} naming the key.
 *
 * @param maxSize capacity in bytes
 * @param maxBlockSize blocks whose heap size exceeds this are refused
 * @param singleFactor share of blocks read once
 * @param multiFactor share of blocks read more than once
 * @param memoryFactor share of blocks of in-memory column families
 * @param acceptableFactor eviction starts when the size exceeds this share of the capacity
 * @param minFactor eviction frees down to this share of the capacity
 * @param hardCapacityLimitFactor inserts are refused at this multiple of the acceptable size
 * @param forceInMemory evict in-memory blocks only once the single and multi groups are empty
 * @param doorkeeper whether a churning cache takes a data block in only at its second miss ({@link
 *     MissDoorkeeper#ENABLED_KEY}, default true)
 */
public record LruBlockCacheConfig(
    long maxSize,
    long maxBlockSize,
    double singleFactor,
    double multiFactor,
    double memoryFactor,
    double acceptableFactor,
    double minFactor,
    double hardCapacityLimitFactor,
    boolean forceInMemory,
    boolean doorkeeper) {

  public static final String CACHE_SIZE_KEY = "hfile.block.cache.size";
  public static final String CACHE_MEMORY_SIZE_KEY = "hfile.block.cache.memory.size";
  public static final String SINGLE_PERCENTAGE_KEY = "hbase.lru.blockcache.single.percentage";
  public static final String MULTI_PERCENTAGE_KEY = "hbase.lru.blockcache.multi.percentage";
  public static final String MEMORY_PERCENTAGE_KEY = "hbase.lru.blockcache.memory.percentage";
  public static final String ACCEPTABLE_FACTOR_KEY = "hbase.lru.blockcache.acceptable.factor";
  public static final String MIN_FACTOR_KEY = "hbase.lru.blockcache.min.factor";
  public static final String HARD_CAPACITY_LIMIT_FACTOR_KEY =
      "hbase.lru.blockcache.hard.capacity.limit.factor";
  public static final String MAX_BLOCK_SIZE_KEY = "hbase.lru.max.block.size";
  public static final String FORCE_IN_MEMORY_KEY = "hbase.lru.rs.inmemoryforcemode";

  public static final double DEFAULT_CACHE_SIZE = 0.4;
  public static final double DEFAULT_SINGLE_FACTOR = 0.25;
  public static final double DEFAULT_MULTI_FACTOR = 0.50;
  public static final double DEFAULT_MEMORY_FACTOR = 0.25;
  public static final double DEFAULT_ACCEPTABLE_FACTOR = 0.99;
  public static final double DEFAULT_MIN_FACTOR = 0.95;
  public static final double DEFAULT_HARD_CAPACITY_LIMIT_FACTOR = 1.2;
  public static final long DEFAULT_MAX_BLOCK_SIZE = 16L * 1024 * 1024;

  private static final double SUM_TOLERANCE = 1e-6;

  public LruBlockCacheConfig {
    if (maxSize <= 0) {
      throw new InvalidConfigException(
          CACHE_MEMORY_SIZE_KEY,
          String.valueOf(maxSize),
          "the block cache capacity must be > 0 bytes");
    }
    if (maxBlockSize <= 0) {
      throw new InvalidConfigException(
          MAX_BLOCK_SIZE_KEY, String.valueOf(maxBlockSize), "must be > 0");
    }
    requireShare(SINGLE_PERCENTAGE_KEY, singleFactor);
    requireShare(MULTI_PERCENTAGE_KEY, multiFactor);
    requireShare(MEMORY_PERCENTAGE_KEY, memoryFactor);
    double sum = singleFactor + multiFactor + memoryFactor;
    if (Math.abs(sum - 1) > SUM_TOLERANCE) {
      throw new InvalidConfigException(
          SINGLE_PERCENTAGE_KEY,
          String.valueOf(singleFactor),
          "the single, multi and memory percentages must sum to 1, they sum to " + sum);
    }
    if (acceptableFactor <= 0 || acceptableFactor >= 1) {
      throw new InvalidConfigException(
          ACCEPTABLE_FACTOR_KEY, String.valueOf(acceptableFactor), "must be > 0 and < 1");
    }
    if (minFactor <= 0 || minFactor >= acceptableFactor) {
      throw new InvalidConfigException(
          MIN_FACTOR_KEY,
          String.valueOf(minFactor),
          "must be > 0 and below " + ACCEPTABLE_FACTOR_KEY + " (" + acceptableFactor + ")");
    }
    if (hardCapacityLimitFactor < 1) {
      throw new InvalidConfigException(
          HARD_CAPACITY_LIMIT_FACTOR_KEY, String.valueOf(hardCapacityLimitFactor), "must be >= 1");
    }
  }

  private static void requireShare(String key, double value) {
    if (value < 0 || value > 1) {
      throw new InvalidConfigException(key, String.valueOf(value), "must be between 0 and 1");
    }
  }

  /** Reads the keys from {@code settings}, sizing a fractional capacity against the JVM's heap. */
  public static LruBlockCacheConfig from(Settings settings) {
    return from(settings, Runtime.getRuntime().maxMemory());
  }

  /** Reads the keys from {@code settings}, sizing a fractional capacity against {@code maxHeap}. */
  public static LruBlockCacheConfig from(Settings settings, long maxHeap) {
    return new LruBlockCacheConfig(
        capacity(settings, maxHeap),
        settings.getLong(MAX_BLOCK_SIZE_KEY, DEFAULT_MAX_BLOCK_SIZE),
        settings.getDouble(SINGLE_PERCENTAGE_KEY, DEFAULT_SINGLE_FACTOR),
        settings.getDouble(MULTI_PERCENTAGE_KEY, DEFAULT_MULTI_FACTOR),
        settings.getDouble(MEMORY_PERCENTAGE_KEY, DEFAULT_MEMORY_FACTOR),
        settings.getDouble(ACCEPTABLE_FACTOR_KEY, DEFAULT_ACCEPTABLE_FACTOR),
        settings.getDouble(MIN_FACTOR_KEY, DEFAULT_MIN_FACTOR),
        settings.getDouble(HARD_CAPACITY_LIMIT_FACTOR_KEY, DEFAULT_HARD_CAPACITY_LIMIT_FACTOR),
        settings.getBoolean(FORCE_IN_MEMORY_KEY, false),
        settings.getBoolean(MissDoorkeeper.ENABLED_KEY, true));
  }

  /** Defaults for everything but the capacity. */
  public static LruBlockCacheConfig withCapacity(long maxSize) {
    return new LruBlockCacheConfig(
        maxSize,
        DEFAULT_MAX_BLOCK_SIZE,
        DEFAULT_SINGLE_FACTOR,
        DEFAULT_MULTI_FACTOR,
        DEFAULT_MEMORY_FACTOR,
        DEFAULT_ACCEPTABLE_FACTOR,
        DEFAULT_MIN_FACTOR,
        DEFAULT_HARD_CAPACITY_LIMIT_FACTOR,
        false,
        true);
  }

  private static long capacity(Settings settings, long maxHeap) {
    long bytes = settings.getBytes(CACHE_MEMORY_SIZE_KEY, 0);
    if (bytes < 0) {
      throw new InvalidConfigException(
          CACHE_MEMORY_SIZE_KEY,
          String.valueOf(bytes),
          "must be >= 0 (0: use " + CACHE_SIZE_KEY + ")");
    }
    if (bytes > 0) {
      return bytes;
    }
    double fraction = settings.getDouble(CACHE_SIZE_KEY, DEFAULT_CACHE_SIZE);
    if (fraction <= 0 || fraction > 1) {
      throw new InvalidConfigException(
          CACHE_SIZE_KEY,
          String.valueOf(fraction),
          "must be > 0 and <= 1 (a fraction of the heap)");
    }
    return (long) (maxHeap * fraction);
  }

  /**
   * True when eviction spares in-memory blocks until nothing else is left: in force-in-memory mode,
   * or when the memory share leaves the other groups (almost) nothing.
   */
  boolean sparesInMemory() {
    return forceInMemory || memoryFactor > 0.999;
  }

  /** The size above which eviction starts. */
  long acceptableSize() {
    return (long) (maxSize * acceptableFactor);
  }

  /** The size eviction frees down to. */
  long minSize() {
    return (long) (maxSize * minFactor);
  }

  /** The size at which inserts are refused. */
  long hardLimitSize() {
    return (long) (acceptableSize() * hardCapacityLimitFactor);
  }

  /** The share of {@code priority} in an eviction's target: capacity × factor × min factor. */
  long targetSize(BlockPriority priority) {
    double factor =
        switch (priority) {
          case SINGLE -> singleFactor;
          case MULTI -> multiFactor;
          case MEMORY -> memoryFactor;
        };
    return (long) (maxSize * factor * minFactor);
  }
}
