package dev.cellar.memory;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;

/**
 * The pooled allocator's settings, with HBase's ByteBuffAllocator keys and defaults.
 *
 * @param poolEnabled {@value #POOL_ENABLED_KEY}: when false every allocation comes from the heap
 * @param bufferSize {@value #BUFFER_SIZE_KEY}: bytes in one pooled buffer
 * @param maxBufferCount {@value #MAX_BUFFER_COUNT_KEY}: pooled buffers created at most
 * @param minimalAllocateSize {@value #MIN_ALLOCATE_SIZE_KEY}: requests (and tails) smaller than
 *     this come from the heap
 */
public record BufAllocatorConfig(
    boolean poolEnabled, int bufferSize, int maxBufferCount, int minimalAllocateSize) {

  public static final String POOL_ENABLED_KEY = "hbase.server.allocator.pool.enabled";
  public static final String BUFFER_SIZE_KEY = "hbase.server.allocator.buffer.size";
  public static final String MAX_BUFFER_COUNT_KEY = "hbase.server.allocator.max.buffer.count";
  public static final String MIN_ALLOCATE_SIZE_KEY = "hbase.server.allocator.minimal.allocate.size";
  /** Request handler threads; the default buffer count is sized from it, as in HBase. */
  public static final String HANDLER_COUNT_KEY = "hbase.regionserver.handler.count";

  /**
   * 65 KiB, not 64: a 64 KiB block plus its header and the next block's header fits in one buffer,
   * so a typical block read is single-segment.
   */
  public static final int DEFAULT_BUFFER_SIZE = 65 * 1024;

  public static final int DEFAULT_HANDLER_COUNT = 30;

  /** Each handler is given this many bytes of buffers, twice over (HBase's sizing rule). */
  private static final int BYTES_PER_HANDLER = 2 * 1024 * 1024;

  /** Defaults: pool on, 66560-byte buffers, 1860 of them, minimal size 11093. */
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
      throw new InvalidConfigException(MIN_ALLOCATE_SIZE_KEY, String.valueOf(minimalAllocateSize),
          "must be between 0 and the buffer size " + bufferSize);
    }
  }

  /** Reads the allocator keys from {@code settings}, applying HBase's defaults. */
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
    int defaultCount = handlers * (BYTES_PER_HANDLER / bufferSize) * 2;
    int maxCount = settings.getInt(MAX_BUFFER_COUNT_KEY, defaultCount);
    int minSize = settings.getInt(MIN_ALLOCATE_SIZE_KEY, bufferSize / 6);
    return new BufAllocatorConfig(enabled, bufferSize, maxCount, minSize);
  }
}
