package dev.cellar.bench;

/**
 * One first-level block cache under benchmark, with its keys and blocks built up front so that the
 * measured operations only look up and insert.
 *
 * <p>Key {@code i} is block {@code i} of one file ({@link #FILE_NAME}) at a distinct offset, and
 * the block cached under it is block {@code i % distinctBlocks}: a cache filled for lookups gets
 * one block per key, an insert benchmark reuses a few blocks under ever new keys. Every block is a
 * heap DATA block of {@link #PAYLOAD_BYTES} payload bytes behind its header.
 */
abstract class L1Cache implements AutoCloseable {

  static final String CELLAR = "cellar";
  static final String HBASE = "hbase";
  static final String CAFFEINE = "caffeine";

  /**
   * Payload bytes per block: 4 KiB rather than 64 KiB keeps ten thousand blocks in a 1 GiB heap.
   */
  static final int PAYLOAD_BYTES = 4096;

  /** The file every key belongs to. */
  static final String FILE_NAME = "l1-cache-benchmark";

  /**
   * A cache of {@code capacity} bytes over {@code keys} keys and {@code distinctBlocks} blocks.
   *
   * @param inlineEviction evict on the inserting thread instead of the cache's background thread
   *     (Caffeine: run its maintenance on the caller instead of the common pool)
   */
  static L1Cache named(
      String name, long capacity, int keys, int distinctBlocks, boolean inlineEviction) {
    return switch (name) {
      case CELLAR -> new CellarL1Cache(capacity, keys, distinctBlocks, inlineEviction);
      case HBASE -> new HBaseL1Cache(capacity, keys, distinctBlocks, inlineEviction);
      case CAFFEINE -> new CaffeineL1Cache(capacity, keys, distinctBlocks, inlineEviction);
      default -> throw new IllegalArgumentException("unknown cache " + name);
    };
  }

  /** Offers the block of key {@code key} to the cache, as a reader does after a miss. */
  abstract void cache(int key);

  /**
   * Looks key {@code key} up, reads the first payload byte of the block found and gives the block
   * back as the cache's API asks.
   *
   * @throws IllegalStateException if the key is not cached
   */
  abstract byte readFirstPayloadByte(int key);

  /** The number of blocks cached right now. */
  abstract long blockCount();

  /** Inserts the cache refused so far (at its hard limit); Caffeine never refuses. */
  abstract long refusedInserts();

  /** Stops the cache's background work and drops its blocks. */
  @Override
  public abstract void close();

  /** File offset of block {@code key}: blocks lie back to back. */
  static long offsetOf(int key, int blockBytes) {
    return (long) key * blockBytes;
  }

  /** The payload bytes of block {@code block}: a recognisable repeating pattern. */
  static byte[] payload(int block) {
    byte[] bytes = new byte[PAYLOAD_BYTES];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (block + i);
    }
    return bytes;
  }

  static IllegalStateException notCached(int key) {
    return new IllegalStateException("block " + key + " is not cached");
  }
}
