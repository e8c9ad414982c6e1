package dev.cellar.bench;

import dev.cellar.cache.bucket.BucketCacheConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * One second-level (bucket) cache under benchmark, with its keys and blocks built up front so that
 * the measured operations only look up and insert.
 *
 * <p>Key {@code i} is block {@code i} of one file ({@link #FILE_NAME}) at a distinct offset, and
 * the block cached under it is always block {@code i % distinctBlocks}, so that a key offered twice
 * is offered with the same bytes (HBase compares them). Every block is a heap DATA block of {@link
 * Spec#payloadBytes()} payload bytes behind its header, as a reader hands it to the cache after a
 * miss; the cache copies it into its engine on a writer thread.
 *
 * <p>Both caches are configured from the same {@code hbase.bucketcache.*} settings ({@link
 * #settings()}) and otherwise keep their defaults, which are alike: HBase's bucket sizes (which
 * Cellar's repeat) and factors, three writer threads with queues of 64 blocks. The copying engines
 * read blocks into a pooled off-heap allocator with the pool settings of {@code
 * BufAllocatorConfig.DEFAULT} (Cellar's {@code BufAllocator}, HBase's {@code ByteBuffAllocator}).
 */
abstract class L2Cache implements AutoCloseable {

  static final String CELLAR = "cellar";
  static final String HBASE = "hbase";

  /** The file every key belongs to. */
  static final String FILE_NAME = "l2-cache-benchmark";

  /** Longs a lookup sums besides the first payload byte, spread evenly over the payload. */
  static final int LONGS_READ = 8;

  /** How long a setup waits for the writers or for a restored index before it fails. */
  static final long TIMEOUT_MILLIS = 60_000;

  /**
   * What to build.
   *
   * @param ioEngine the engine as {@code hbase.bucketcache.ioengine} names it ({@code offheap},
   *     {@code heap} (Cellar only), {@code file:/path})
   * @param capacityMiB engine size in MiB, as {@code hbase.bucketcache.size} gives it
   * @param payloadBytes payload bytes per block
   * @param keys keys the cache is used with
   * @param distinctBlocks blocks built and cached under the keys in turn
   * @param persistentPath where the index is persisted ({@code file:} only), or null
   * @param queueWaitMillis how long an insert waits for room in a full writer queue (0: it fails)
   */
  record Spec(
      String ioEngine,
      int capacityMiB,
      int payloadBytes,
      int keys,
      int distinctBlocks,
      Path persistentPath,
      long queueWaitMillis) {}

  final Spec spec;

  L2Cache(Spec spec) {
    this.spec = spec;
  }

  /** The {@code hbase.bucketcache.*} settings both caches are built from. */
  final Map<String, String> settings() {
    Map<String, String> settings = new TreeMap<>();
    settings.put(BucketCacheConfig.IOENGINE_KEY, spec.ioEngine());
    settings.put(BucketCacheConfig.SIZE_KEY, Integer.toString(spec.capacityMiB()));
    settings.put(BucketCacheConfig.QUEUE_ADDITION_WAIT_KEY, Long.toString(spec.queueWaitMillis()));
    if (spec.persistentPath() != null) {
      settings.put(BucketCacheConfig.PERSISTENT_PATH_KEY, spec.persistentPath().toString());
    }
    return settings;
  }

  /** Opens cache {@code name} ({@link #CELLAR} or {@link #HBASE}), restoring a persisted index. */
  static L2Cache open(String name, Spec spec) throws IOException {
    return switch (name) {
      case CELLAR -> new CellarL2Cache(spec);
      case HBASE -> new HBaseL2Cache(spec);
      default -> throw new IllegalArgumentException("unknown cache " + name);
    };
  }

  /** Offers the block of key {@code key} to the cache, as a reader does after a miss. */
  abstract void cache(int key);

  /**
   * Looks key {@code key} up, reads the first payload byte and {@value #LONGS_READ} longs spread
   * over the payload, and gives the block back as the cache's API asks.
   *
   * @return the byte plus the longs
   * @throws IllegalStateException if the key is not cached
   */
  abstract long read(int key);

  /** Waits until no accepted block waits for a writer. */
  abstract void awaitDrained() throws InterruptedException;

  /** Blocks cached right now, written or waiting for a writer. */
  abstract long blockCount();

  /**
   * True once the cache serves what it restored (HBase may validate its index in the background).
   */
  abstract boolean restored();

  /** Inserts refused so far (a full writer queue, or no room). */
  abstract long failedInserts();

  /** Blocks evicted so far to free space. */
  abstract long evictedBlocks();

  /** Stops the cache (persisting its index when it has a persistent path) and frees its memory. */
  @Override
  public abstract void close();

  /**
   * Caches every key and waits until every block is written: an insert refused because its writer
   * queue was full is offered again once the queues drained.
   *
   * @throws IllegalStateException if a key cannot be cached
   */
  final void cacheAllAndDrain() throws InterruptedException {
    for (int key = 0; key < spec.keys(); key++) {
      long failed = failedInserts();
      cache(key);
      for (int attempt = 0; failedInserts() > failed; attempt++) {
        if (attempt == 3) {
          throw new IllegalStateException("the cache keeps refusing block " + key);
        }
        awaitDrained();
        failed = failedInserts();
        cache(key);
      }
    }
    awaitDrained();
    if (blockCount() != spec.keys()) {
      throw new IllegalStateException("cached " + blockCount() + " of " + spec.keys() + " blocks");
    }
  }

  /** Waits until the restored index serves all {@code keys} blocks. */
  final void awaitRestored() throws InterruptedException {
    awaitTrue(() -> restored() && blockCount() == spec.keys(), "the restored index");
  }

  /** Polls {@code condition} every millisecond until it holds. */
  static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(1);
    }
  }

  /** File offset of block {@code key}: blocks lie back to back. */
  static long offsetOf(int key, int blockBytes) {
    return (long) key * blockBytes;
  }

  /** Distance between the longs a lookup reads. */
  static int longStride(int payloadBytes) {
    return payloadBytes / LONGS_READ;
  }

  /** The payload bytes of block {@code block}: a recognisable repeating pattern. */
  static byte[] payload(int block, int payloadBytes) {
    byte[] bytes = new byte[payloadBytes];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (block + i);
    }
    return bytes;
  }

  static IllegalStateException notCached(int key) {
    return new IllegalStateException("block " + key + " is not cached");
  }
}
