package dev.cellar.store.memstore;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;

/**
 * The memstore's settings, with HBase's keys and defaults ({@code MemStoreLAB}, {@code
 * ChunkCreator}, {@code MemorySizeUtil}, {@code HRegion}).
 *
 * <p><b>Chunk pool sizing</b>, as HBase's {@code ChunkCreator} does it: the global memstore size is
 * {@value #OFFHEAP_GLOBAL_MEMSTORE_SIZE_KEY} MiB when that is above 0 (and the MSLAB is enabled),
 * otherwise {@value #GLOBAL_MEMSTORE_SIZE_KEY} (default 0.4) times the maximum heap. The pool keeps
 * at most {@code (int) (globalMemStoreSize * maxsize / chunkSize)} chunks, where {@code maxsize} is
 * {@value #CHUNK_POOL_MAXSIZE_KEY}: a fraction of the global memstore size, default <b>1.0</b>
 * since HBase 2.0 (it was 0.0, no pool, in HBase 1.x); 0 means no pool at all. {@value
 * #CHUNK_POOL_INITIALSIZE_KEY} (default 0.0) is the fraction of that maximum created up front.
 * Without the MSLAB there is no pool. Unlike HBase, which always creates its pooled chunks on the
 * heap unless the off-heap key is set, Cellar's pooled chunks are always off-heap; the chunks HBase
 * creates on the heap once the pool is exhausted are created on the heap here too.
 *
 * <p><b>Validation.</b> Out-of-range values fail with an {@link InvalidConfigException} naming the
 * key, as every Cellar setting does; HBase instead falls back to 0.4 for a global memstore fraction
 * outside (0, 0.8] and to the default for a flush size of 0 or below.
 *
 * @param mslabEnabled {@value #MSLAB_ENABLED_KEY}: copy cells into chunks (default true); when
 *     false every cell is copied to its own heap array
 * @param chunkSize {@value #CHUNK_SIZE_KEY}: bytes per chunk (default 2 MiB)
 * @param maxAllocation {@value #MAX_ALLOCATION_KEY}: cells longer than this bypass the chunks and
 *     are copied to the heap (default 256 KiB); at most the chunk size
 * @param poolMaxCount chunks the pool keeps at most, derived as above
 * @param poolInitialCount chunks the pool creates up front, derived as above
 * @param flushSize {@value #FLUSH_SIZE_KEY}: the memstore size at which a flush is due (default 128
 *     MiB), see {@link MemStore#shouldFlush}
 */
public record MemStoreConfig(
    boolean mslabEnabled,
    int chunkSize,
    int maxAllocation,
    int poolMaxCount,
    int poolInitialCount,
    long flushSize) {

  public static final String MSLAB_ENABLED_KEY = "hbase.hregion.memstore.mslab.enabled";
  public static final String CHUNK_SIZE_KEY = "hbase.hregion.memstore.mslab.chunksize";
  public static final String MAX_ALLOCATION_KEY = "hbase.hregion.memstore.mslab.max.allocation";
  public static final String CHUNK_POOL_MAXSIZE_KEY = "hbase.hregion.memstore.chunkpool.maxsize";
  public static final String CHUNK_POOL_INITIALSIZE_KEY =
      "hbase.hregion.memstore.chunkpool.initialsize";
  public static final String GLOBAL_MEMSTORE_SIZE_KEY = "hbase.regionserver.global.memstore.size";
  public static final String OFFHEAP_GLOBAL_MEMSTORE_SIZE_KEY =
      "hbase.regionserver.offheap.global.memstore.size";
  public static final String FLUSH_SIZE_KEY = "hbase.hregion.memstore.flush.size";

  public static final int DEFAULT_CHUNK_SIZE = 2048 * 1024;
  public static final int DEFAULT_MAX_ALLOCATION = 256 * 1024;
  public static final double DEFAULT_CHUNK_POOL_MAXSIZE = 1.0;
  public static final double DEFAULT_CHUNK_POOL_INITIALSIZE = 0.0;
  public static final double DEFAULT_GLOBAL_MEMSTORE_SIZE = 0.4;
  public static final long DEFAULT_FLUSH_SIZE = 128L * 1024 * 1024;

  /** HBase refuses a global memstore fraction above this (it must leave heap for the rest). */
  private static final double MAX_GLOBAL_MEMSTORE_SIZE = 0.8;

  public MemStoreConfig {
    if (chunkSize <= 0) {
      throw new InvalidConfigException(CHUNK_SIZE_KEY, String.valueOf(chunkSize), "must be > 0");
    }
    if (maxAllocation < 0 || maxAllocation > chunkSize) {
      throw new InvalidConfigException(
          MAX_ALLOCATION_KEY,
          String.valueOf(maxAllocation),
          "must be between 0 and " + CHUNK_SIZE_KEY + " (" + chunkSize + ")");
    }
    if (poolMaxCount < 0) {
      throw new InvalidConfigException(
          CHUNK_POOL_MAXSIZE_KEY, "a pool of " + poolMaxCount + " chunks", "must be >= 0");
    }
    if (poolInitialCount < 0 || poolInitialCount > poolMaxCount) {
      throw new InvalidConfigException(
          CHUNK_POOL_INITIALSIZE_KEY,
          "an initial pool of " + poolInitialCount + " chunks",
          "must be between 0 and the pool's maximum " + poolMaxCount);
    }
    if (flushSize <= 0) {
      throw new InvalidConfigException(FLUSH_SIZE_KEY, String.valueOf(flushSize), "must be > 0");
    }
  }

  /** Reads the memstore keys from {@code settings}, sizing the pool from this JVM's max heap. */
  public static MemStoreConfig from(Settings settings) {
    return from(settings, Runtime.getRuntime().maxMemory());
  }

  /**
   * Reads the memstore keys from {@code settings}, sizing the pool from a maximum heap of {@code
   * maxHeapBytes} (injectable so that tests are deterministic).
   */
  public static MemStoreConfig from(Settings settings, long maxHeapBytes) {
    boolean enabled = settings.getBoolean(MSLAB_ENABLED_KEY, true);
    int chunkSize = settings.getInt(CHUNK_SIZE_KEY, DEFAULT_CHUNK_SIZE);
    if (chunkSize <= 0) {
      throw new InvalidConfigException(CHUNK_SIZE_KEY, String.valueOf(chunkSize), "must be > 0");
    }
    int maxAllocation = settings.getInt(MAX_ALLOCATION_KEY, DEFAULT_MAX_ALLOCATION);
    double maxFraction = fraction(settings, CHUNK_POOL_MAXSIZE_KEY, DEFAULT_CHUNK_POOL_MAXSIZE);
    double initialFraction =
        fraction(settings, CHUNK_POOL_INITIALSIZE_KEY, DEFAULT_CHUNK_POOL_INITIALSIZE);
    long flushSize = settings.getLong(FLUSH_SIZE_KEY, DEFAULT_FLUSH_SIZE);
    long globalMemStoreSize = globalMemStoreSize(settings, maxHeapBytes);
    int maxCount = enabled ? (int) (globalMemStoreSize * maxFraction / chunkSize) : 0;
    int initialCount = (int) (initialFraction * maxCount);
    return new MemStoreConfig(enabled, chunkSize, maxAllocation, maxCount, initialCount, flushSize);
  }

  /**
   * The memory all memstores may use together, in bytes: the off-heap size in MiB when set, else
   * the heap fraction of {@code maxHeapBytes} (HBase's {@code
   * MemorySizeUtil.getGlobalMemStoreSize}).
   */
  public static long globalMemStoreSize(Settings settings, long maxHeapBytes) {
    long offHeapMiB = settings.getLong(OFFHEAP_GLOBAL_MEMSTORE_SIZE_KEY, 0);
    if (offHeapMiB > 0) {
      return offHeapMiB * 1024 * 1024;
    }
    double heapFraction =
        settings.getDouble(GLOBAL_MEMSTORE_SIZE_KEY, DEFAULT_GLOBAL_MEMSTORE_SIZE);
    if (heapFraction <= 0 || heapFraction > MAX_GLOBAL_MEMSTORE_SIZE) {
      throw new InvalidConfigException(
          GLOBAL_MEMSTORE_SIZE_KEY,
          String.valueOf(heapFraction),
          "must be in (0, " + MAX_GLOBAL_MEMSTORE_SIZE + "]");
    }
    return (long) (maxHeapBytes * heapFraction);
  }

  private static double fraction(Settings settings, String key, double defaultValue) {
    double value = settings.getDouble(key, defaultValue);
    if (value < 0 || value > 1) {
      throw new InvalidConfigException(key, String.valueOf(value), "must be between 0.0 and 1.0");
    }
    return value;
  }
}
