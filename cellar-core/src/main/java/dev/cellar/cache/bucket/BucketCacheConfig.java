package dev.cellar.cache.bucket;

import dev.cellar.cache.MissDoorkeeper;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * The settings of a {@link BucketCache}, under HBase's {@code hbase.bucketcache.*} keys and
 * defaults. Every violation throws {@link InvalidConfigException} naming the key.
 *
 * @param ioEngine where blocks are stored: {@code offheap}, {@code heap}, {@code file:/path},
 *     {@code files:/p1,/p2}, {@code mmap:/path}
 * @param capacity bytes of engine space ({@code hbase.bucketcache.size} is in MiB)
 * @param bucketSizes slot sizes, ascending, each a multiple of 256
 * @param writerThreads threads draining the insert queues
 * @param writerQueueLength capacity of each writer's queue
 * @param acceptFactor freeing starts when used bytes exceed this share of the capacity
 * @param minFactor each size class is freed until this share of its slots is used
 * @param extraFreeFactor freeing frees this much more than it needs, as a share of the need
 * @param singleFactor share of entries read once
 * @param multiFactor share of entries read more than once
 * @param memoryFactor share of entries of in-memory column families
 * @param persistentPath where the cache's index is persisted for a warm restart, or null
 * @param persistIntervalMillis how often a changed index is persisted
 * @param queueAdditionWaitMillis how long a cache-only insert waits for a full queue (0: never)
 * @param ioErrorsToleratedMillis continuous engine errors for longer than this disable the cache
 * @param doorkeeper whether a churning cache takes a data block in only at its second miss ({@link
 *     MissDoorkeeper#ENABLED_KEY}, default true)
 */
public record BucketCacheConfig(
    String ioEngine,
    long capacity,
    int[] bucketSizes,
    int writerThreads,
    int writerQueueLength,
    double acceptFactor,
    double minFactor,
    double extraFreeFactor,
    double singleFactor,
    double multiFactor,
    double memoryFactor,
    Path persistentPath,
    long persistIntervalMillis,
    long queueAdditionWaitMillis,
    long ioErrorsToleratedMillis,
    boolean doorkeeper) {

  public static final String IOENGINE_KEY = "hbase.bucketcache.ioengine";
  public static final String SIZE_KEY = "hbase.bucketcache.size";
  public static final String BUCKET_SIZES_KEY = "hbase.bucketcache.bucket.sizes";
  public static final String WRITER_THREADS_KEY = "hbase.bucketcache.writer.threads";
  public static final String WRITER_QUEUE_LENGTH_KEY = "hbase.bucketcache.writer.queuelength";
  public static final String ACCEPT_FACTOR_KEY = "hbase.bucketcache.acceptfactor";
  public static final String MIN_FACTOR_KEY = "hbase.bucketcache.minfactor";
  public static final String EXTRA_FREE_FACTOR_KEY = "hbase.bucketcache.extrafreefactor";
  public static final String SINGLE_FACTOR_KEY = "hbase.bucketcache.single.factor";
  public static final String MULTI_FACTOR_KEY = "hbase.bucketcache.multi.factor";
  public static final String MEMORY_FACTOR_KEY = "hbase.bucketcache.memory.factor";
  public static final String PERSISTENT_PATH_KEY = "hbase.bucketcache.persistent.path";
  public static final String PERSIST_INTERVAL_KEY = "hbase.bucketcache.persist.intervalinmillis";
  public static final String QUEUE_ADDITION_WAIT_KEY = "hbase.bucketcache.queue.addition.waittime";
  public static final String IO_ERRORS_TOLERATED_KEY =
      "hbase.bucketcache.ioengine.errors.tolerated.duration";

  /**
   * 68 KiB, Cellar's addition to HBase's default sizes. A data block closes once it reached its
   * block size, so with the default 64 KiB it overshoots by up to one cell (plus a ROW_INDEX_V1 row
   * index): HBase PerformanceEvaluation's blocks of 1000-byte values take 66,561 bytes of header
   * and payload plus 12 of metadata, just above the 65 KiB size, and HBase's next size, 97 KiB,
   * would waste a third of each slot. This size holds a 64 KiB block overshooting by up to 4,051
   * bytes (values up to about 4000 bytes, with or without a row index) and wastes 4.4% of the slot
   * on PE's blocks.
   */
  public static final int OVERSHOOT_BUCKET_SIZE = 69632;

  /**
   * HBase's 14 sizes, 1 KiB above 4, 8, 16, 32, 40, 48, 56, 64, 96, 128, 192, 256, 384 and 512 KiB,
   * plus {@value #OVERSHOOT_BUCKET_SIZE}.
   */
  public static final int[] DEFAULT_BUCKET_SIZES = {
    5120,
    9216,
    17408,
    33792,
    41984,
    50176,
    58368,
    66560,
    OVERSHOOT_BUCKET_SIZE,
    99328,
    132096,
    197632,
    263168,
    394240,
    525312
  };

  public static final int DEFAULT_WRITER_THREADS = 3;
  public static final int DEFAULT_WRITER_QUEUE_LENGTH = 64;
  public static final double DEFAULT_ACCEPT_FACTOR = 0.95;
  public static final double DEFAULT_MIN_FACTOR = 0.85;
  public static final double DEFAULT_EXTRA_FREE_FACTOR = 0.10;
  public static final double DEFAULT_SINGLE_FACTOR = 0.25;
  public static final double DEFAULT_MULTI_FACTOR = 0.50;
  public static final double DEFAULT_MEMORY_FACTOR = 0.25;
  public static final long DEFAULT_PERSIST_INTERVAL_MILLIS = 1000;
  public static final long DEFAULT_IO_ERRORS_TOLERATED_MILLIS = 60_000;

  private static final long MIB = 1024 * 1024;
  private static final double SUM_TOLERANCE = 1e-6;

  public BucketCacheConfig {
    if (ioEngine == null || ioEngine.isBlank()) {
      throw new InvalidConfigException(IOENGINE_KEY, String.valueOf(ioEngine), "must be set");
    }
    if (capacity <= 0) {
      throw new InvalidConfigException(SIZE_KEY, String.valueOf(capacity), "must be > 0");
    }
    bucketSizes = bucketSizes.clone();
    checkBucketSizes(bucketSizes);
    requirePositive(WRITER_THREADS_KEY, writerThreads);
    requirePositive(WRITER_QUEUE_LENGTH_KEY, writerQueueLength);
    requireShare(ACCEPT_FACTOR_KEY, acceptFactor);
    requireShare(MIN_FACTOR_KEY, minFactor);
    if (minFactor > acceptFactor) {
      throw new InvalidConfigException(
          MIN_FACTOR_KEY,
          String.valueOf(minFactor),
          "must not exceed " + ACCEPT_FACTOR_KEY + " (" + acceptFactor + ")");
    }
    if (extraFreeFactor < 0) {
      throw new InvalidConfigException(
          EXTRA_FREE_FACTOR_KEY, String.valueOf(extraFreeFactor), "must be >= 0");
    }
    requireShare(SINGLE_FACTOR_KEY, singleFactor);
    requireShare(MULTI_FACTOR_KEY, multiFactor);
    requireShare(MEMORY_FACTOR_KEY, memoryFactor);
    double sum = singleFactor + multiFactor + memoryFactor;
    if (Math.abs(sum - 1) > SUM_TOLERANCE) {
      throw new InvalidConfigException(
          SINGLE_FACTOR_KEY,
          String.valueOf(singleFactor),
          "the single, multi and memory factors must sum to 1, they sum to " + sum);
    }
    if (persistIntervalMillis <= 0) {
      throw new InvalidConfigException(
          PERSIST_INTERVAL_KEY, String.valueOf(persistIntervalMillis), "must be > 0");
    }
    if (queueAdditionWaitMillis < 0) {
      throw new InvalidConfigException(
          QUEUE_ADDITION_WAIT_KEY, String.valueOf(queueAdditionWaitMillis), "must be >= 0");
    }
    if (ioErrorsToleratedMillis < 0) {
      throw new InvalidConfigException(
          IO_ERRORS_TOLERATED_KEY, String.valueOf(ioErrorsToleratedMillis), "must be >= 0");
    }
  }

  private static void checkBucketSizes(int[] sizes) {
    if (sizes.length == 0) {
      throw new InvalidConfigException(BUCKET_SIZES_KEY, "", "needs at least one size");
    }
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] <= 0 || sizes[i] % 256 != 0) {
        throw new InvalidConfigException(
            BUCKET_SIZES_KEY,
            Arrays.toString(sizes),
            "every size must be a positive multiple of 256, " + sizes[i] + " is not");
      }
      if (i > 0 && sizes[i] <= sizes[i - 1]) {
        throw new InvalidConfigException(
            BUCKET_SIZES_KEY,
            Arrays.toString(sizes),
            "sizes must be ascending, " + sizes[i] + " follows " + sizes[i - 1]);
      }
    }
  }

  private static void requirePositive(String key, int value) {
    if (value <= 0) {
      throw new InvalidConfigException(key, String.valueOf(value), "must be > 0");
    }
  }

  private static void requireShare(String key, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new InvalidConfigException(key, String.valueOf(value), "must be between 0 and 1");
    }
  }

  /** True if {@link #IOENGINE_KEY} is set, that is, the settings ask for an L2 bucket cache. */
  public static boolean isConfigured(Settings settings) {
    String engine = settings.get(IOENGINE_KEY);
    return engine != null && !engine.isBlank();
  }

  /**
   * Reads every key from {@code settings}; {@link #IOENGINE_KEY} and {@link #SIZE_KEY} are
   * required.
   */
  public static BucketCacheConfig from(Settings settings) {
    String sizeText = settings.get(SIZE_KEY);
    double mebibytes = settings.getDouble(SIZE_KEY, 0);
    if (!(mebibytes >= 1)) {
      throw new InvalidConfigException(
          SIZE_KEY, String.valueOf(sizeText), "the bucket cache size is in MiB and must be >= 1");
    }
    String path = settings.get(PERSISTENT_PATH_KEY);
    return new BucketCacheConfig(
        settings.getString(IOENGINE_KEY, null),
        (long) (mebibytes * MIB),
        bucketSizes(settings),
        settings.getInt(WRITER_THREADS_KEY, DEFAULT_WRITER_THREADS),
        settings.getInt(WRITER_QUEUE_LENGTH_KEY, DEFAULT_WRITER_QUEUE_LENGTH),
        settings.getDouble(ACCEPT_FACTOR_KEY, DEFAULT_ACCEPT_FACTOR),
        settings.getDouble(MIN_FACTOR_KEY, DEFAULT_MIN_FACTOR),
        settings.getDouble(EXTRA_FREE_FACTOR_KEY, DEFAULT_EXTRA_FREE_FACTOR),
        settings.getDouble(SINGLE_FACTOR_KEY, DEFAULT_SINGLE_FACTOR),
        settings.getDouble(MULTI_FACTOR_KEY, DEFAULT_MULTI_FACTOR),
        settings.getDouble(MEMORY_FACTOR_KEY, DEFAULT_MEMORY_FACTOR),
        path == null || path.isBlank() ? null : Path.of(path.trim()),
        settings.getLong(PERSIST_INTERVAL_KEY, DEFAULT_PERSIST_INTERVAL_MILLIS),
        settings.getLong(QUEUE_ADDITION_WAIT_KEY, 0),
        settings.getLong(IO_ERRORS_TOLERATED_KEY, DEFAULT_IO_ERRORS_TOLERATED_MILLIS),
        settings.getBoolean(MissDoorkeeper.ENABLED_KEY, true));
  }

  /** Defaults for everything but the engine and the capacity; no persistence. */
  public static BucketCacheConfig of(String ioEngine, long capacity) {
    return new BucketCacheConfig(
        ioEngine,
        capacity,
        DEFAULT_BUCKET_SIZES,
        DEFAULT_WRITER_THREADS,
        DEFAULT_WRITER_QUEUE_LENGTH,
        DEFAULT_ACCEPT_FACTOR,
        DEFAULT_MIN_FACTOR,
        DEFAULT_EXTRA_FREE_FACTOR,
        DEFAULT_SINGLE_FACTOR,
        DEFAULT_MULTI_FACTOR,
        DEFAULT_MEMORY_FACTOR,
        null,
        DEFAULT_PERSIST_INTERVAL_MILLIS,
        0,
        DEFAULT_IO_ERRORS_TOLERATED_MILLIS,
        true);
  }

  /** This configuration with other bucket sizes. */
  public BucketCacheConfig withBucketSizes(int... sizes) {
    return new BucketCacheConfig(
        ioEngine,
        capacity,
        sizes,
        writerThreads,
        writerQueueLength,
        acceptFactor,
        minFactor,
        extraFreeFactor,
        singleFactor,
        multiFactor,
        memoryFactor,
        persistentPath,
        persistIntervalMillis,
        queueAdditionWaitMillis,
        ioErrorsToleratedMillis,
        doorkeeper);
  }

  /** This configuration persisting its index at {@code path}. */
  public BucketCacheConfig withPersistentPath(Path path) {
    return new BucketCacheConfig(
        ioEngine,
        capacity,
        bucketSizes,
        writerThreads,
        writerQueueLength,
        acceptFactor,
        minFactor,
        extraFreeFactor,
        singleFactor,
        multiFactor,
        memoryFactor,
        path,
        persistIntervalMillis,
        queueAdditionWaitMillis,
        ioErrorsToleratedMillis,
        doorkeeper);
  }

  private static int[] bucketSizes(Settings settings) {
    String text = settings.get(BUCKET_SIZES_KEY);
    if (text == null || text.isBlank()) {
      return DEFAULT_BUCKET_SIZES;
    }
    String[] parts = text.split(",");
    int[] sizes = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        sizes[i] = Integer.parseInt(parts[i].trim());
      } catch (NumberFormatException e) {
        throw new InvalidConfigException(
            BUCKET_SIZES_KEY,
            text,
            "expected a comma-separated list of sizes in bytes, '" + parts[i].trim() + "' is not");
      }
    }
    return sizes;
  }

  @Override
  public int[] bucketSizes() {
    return bucketSizes.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BucketCacheConfig that
        && ioEngine.equals(that.ioEngine)
        && capacity == that.capacity
        && Arrays.equals(bucketSizes, that.bucketSizes)
        && writerThreads == that.writerThreads
        && writerQueueLength == that.writerQueueLength
        && acceptFactor == that.acceptFactor
        && minFactor == that.minFactor
        && extraFreeFactor == that.extraFreeFactor
        && singleFactor == that.singleFactor
        && multiFactor == that.multiFactor
        && memoryFactor == that.memoryFactor
        && Objects.equals(persistentPath, that.persistentPath)
        && persistIntervalMillis == that.persistIntervalMillis
        && queueAdditionWaitMillis == that.queueAdditionWaitMillis
        && ioErrorsToleratedMillis == that.ioErrorsToleratedMillis;
  }

  @Override
  public int hashCode() {
    return Objects.hash(ioEngine, capacity, Arrays.hashCode(bucketSizes), persistentPath);
  }

  @Override
  public String toString() {
    return "BucketCacheConfig["
        + ioEngine
        + ", "
        + capacity
        + " bytes, sizes "
        + Arrays.toString(bucketSizes)
        + ", persistent "
        + persistentPath
        + "]";
  }
}
