package dev.cellar.memory;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;

/**
 * The pooled allocator's settings: HBase's ByteBuffAllocator keys and defaults, plus one size class
 * of Cellar's own for blocks slightly larger than HBase's buffer.
 *
 * <p><b>The large class (a deviation from HBase).</b> HBase pools buffers of one size, 65 KiB,
 * which holds a 64 KiB block with its header and checksums. But a block closes only once it reached
 * its block size, so it overshoots by up to one cell, plus a row index for ROW_INDEX_V1: with
 * HBase's PerformanceEvaluation data (1000-byte values) most data blocks are 66,581 bytes on disk,
 * just over the buffer. HBase reads such a block into a pooled buffer plus a heap tail, a two-piece
 * buffer its seekers read across; Cellar's seekers read a block in one segment, so it would come
 * from the heap. Cellar therefore adds a second pool, of buffers of {@value #LARGE_BUFFER_SIZE_KEY}
 * bytes (by default twice the buffer size, 130 KiB, which holds a 64 KiB block overshooting by any
 * cell up to about 64 KiB): a request above the buffer size and up to that size takes one of them.
 * Its count follows HBase's sizing rule applied to its own size. A large size of 0 turns the class
 * off, which is HBase's allocator exactly.
 *
 * @param poolEnabled {@value #POOL_ENABLED_KEY}: when false every allocation comes from the heap
 * @param bufferSize {@value #BUFFER_SIZE_KEY}: bytes in one pooled buffer
 * @param maxBufferCount {@value #MAX_BUFFER_COUNT_KEY}: pooled buffers created at most
 * @param minimalAllocateSize {@value #MIN_ALLOCATE_SIZE_KEY}: requests (and tails) smaller than
 *     this come from the heap
 * @param largeBufferSize {@value #LARGE_BUFFER_SIZE_KEY}: bytes in one buffer of the large class,
 *     above the buffer size; 0 when there is no large class
 * @param largeMaxBufferCount {@value #LARGE_MAX_BUFFER_COUNT_KEY}: large buffers created at most
 */
public record BufAllocatorConfig(
    boolean poolEnabled,
    int bufferSize,
    int maxBufferCount,
    int minimalAllocateSize,
    int largeBufferSize,
    int largeMaxBufferCount) {

  public static final String POOL_ENABLED_KEY = "hbase.server.allocator.pool.enabled";
  public static final String BUFFER_SIZE_KEY = "hbase.server.allocator.buffer.size";
  public static final String MAX_BUFFER_COUNT_KEY = "hbase.server.allocator.max.buffer.count";
  public static final String MIN_ALLOCATE_SIZE_KEY = "hbase.server.allocator.minimal.allocate.size";

  /** Cellar's own: bytes in one buffer of the large class; 0 turns the class off. */
  public static final String LARGE_BUFFER_SIZE_KEY = "cellar.server.allocator.large.buffer.size";

  /** Cellar's own: large buffers created at most. */
  public static final String LARGE_MAX_BUFFER_COUNT_KEY =
      "cellar.server.allocator.large.max.buffer.count";

  /** Request handler threads; the default buffer counts are sized from it, as in HBase. */
  public static final String HANDLER_COUNT_KEY = "hbase.regionserver.handler.count";

  /**
   * 65 KiB, not 64: a 64 KiB block plus its header and the next block's header fits in one buffer,
   * so a typical block read is single-segment.
   */
  public static final int DEFAULT_BUFFER_SIZE = 65 * 1024;

  /** The default large buffer size, as a multiple of the buffer size. */
  public static final int DEFAULT_LARGE_BUFFER_MULTIPLE = 2;

  public static final int DEFAULT_HANDLER_COUNT = 30;

  /** Each handler is given this many bytes of buffers, twice over (HBase's sizing rule). */
  private static final int BYTES_PER_HANDLER = 2 * 1024 * 1024;

  /**
   * Defaults: pool on, 1860 buffers of 66,560 bytes, minimal size 11,093, and 900 large buffers of
   * 133,120 bytes.
   */
  public static final BufAllocatorConfig DEFAULT = from(Settings.empty());

  public BufAllocatorConfig {
    if (bufferSize <= 0) {
      throw new InvalidConfigException(BUFFER_SIZE_KEY, String.valueOf(bufferSize), "must be > 0");
    }
    if (maxBufferCount < 0) {
      throw new InvalidConfigException(
          MAX_BUFFER_COUNT_KEY, String.valueOf(maxBufferCount), "must be >= 0");
    }
    if (minimalAllocateSize < 0 || minimalAllocateSize > bufferSize) {
      throw new InvalidConfigException(
          MIN_ALLOCATE_SIZE_KEY,
          String.valueOf(minimalAllocateSize),
          "must be between 0 and the buffer size " + bufferSize);
    }
    if (largeBufferSize != 0 && largeBufferSize <= bufferSize) {
      throw new InvalidConfigException(
          LARGE_BUFFER_SIZE_KEY,
          String.valueOf(largeBufferSize),
          "must be 0 (no large buffers) or above the buffer size " + bufferSize);
    }
    if (largeMaxBufferCount < 0) {
      throw new InvalidConfigException(
          LARGE_MAX_BUFFER_COUNT_KEY, String.valueOf(largeMaxBufferCount), "must be >= 0");
    }
  }

  /** HBase's allocator: one pooled size class, no large buffers. */
  public BufAllocatorConfig(
      boolean poolEnabled, int bufferSize, int maxBufferCount, int minimalAllocateSize) {
    this(poolEnabled, bufferSize, maxBufferCount, minimalAllocateSize, 0, 0);
  }

  /** The largest request one pooled buffer holds: the large size, or the buffer size without it. */
  public int largestBufferSize() {
    return Math.max(bufferSize, largeBufferSize);
  }

  /** Reads the allocator keys from {@code settings}, applying HBase's defaults (and Cellar's). */
  public static BufAllocatorConfig from(Settings settings) {
    boolean enabled = settings.getBoolean(POOL_ENABLED_KEY, true);
    int bufferSize = settings.getInt(BUFFER_SIZE_KEY, DEFAULT_BUFFER_SIZE);
    if (bufferSize <= 0) {
      throw new InvalidConfigException(BUFFER_SIZE_KEY, String.valueOf(bufferSize), "must be > 0");
    }
    int handlers = settings.getInt(HANDLER_COUNT_KEY, DEFAULT_HANDLER_COUNT);
    if (handlers <= 0) {
      throw new InvalidConfigException(HANDLER_COUNT_KEY, String.valueOf(handlers), "must be > 0");
    }
    int maxCount = settings.getInt(MAX_BUFFER_COUNT_KEY, defaultCount(handlers, bufferSize));
    int minSize = settings.getInt(MIN_ALLOCATE_SIZE_KEY, bufferSize / 6);
    long twice = (long) DEFAULT_LARGE_BUFFER_MULTIPLE * bufferSize;
    int largeSize =
        settings.getInt(LARGE_BUFFER_SIZE_KEY, twice > Integer.MAX_VALUE ? 0 : (int) twice);
    int largeCount =
        largeSize <= 0
            ? 0
            : settings.getInt(LARGE_MAX_BUFFER_COUNT_KEY, defaultCount(handlers, largeSize));
    return new BufAllocatorConfig(enabled, bufferSize, maxCount, minSize, largeSize, largeCount);
  }

  /** HBase's rule: floor(2 MiB / size) buffers per handler, twice over. */
  private static int defaultCount(int handlers, int size) {
    return handlers * (BYTES_PER_HANDLER / size) * 2;
  }
}
