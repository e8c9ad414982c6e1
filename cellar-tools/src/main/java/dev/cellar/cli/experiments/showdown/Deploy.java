package dev.cellar.cli.experiments.showdown;

import dev.cellar.cache.MissDoorkeeper;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The showdown's five block cache deploys, each sized from the seed's configuration table (its 8G
 * row) as shares of the memory allotted to the process: the JVM's heap, the L1 LRU cache and the L2
 * bucket cache. The block cache is about 60% of the allotment in every deploy; the heap is almost
 * all of it for the on-heap deploys and about a fifth of it for the off-heap ones, so GC effects
 * show where the seed saw them.
 *
 * <p>Tiny allotments (smoke runs) get floors: a heap of at least 128 MiB beyond what it caches, an
 * L1 of at least 1 MiB, a bucket cache of at least 32 MiB (one bucket per size class) and a direct
 * memory limit of at least 64 MiB; {@link DeploySizing} says which applied, and the report shows
 * the sizes used and how they were reached.
 *
 * <p>The SlabCache-like deploy stands in for HBase 0.98's SlabCache, which HBase removed: an
 * off-heap L2 of two fixed slot sizes (1.1 and 1.4 times the block size, SlabCache's two slabs)
 * with every block kept in both tiers (its DoubleBlockCache), in the small heap the seed gave it.
 *
 * <p>Every deploy caches each block it reads, as HBase's caches do: Cellar's doorkeeper, which
 * leaves out a churning cache's first misses, is off, so the deploys compare as the seed's did.
 */
public enum Deploy {
  LRU("LruBlockCache", 7.8 / 8, 4.7 / 8, null, 0),
  SLAB("SlabCache-like", 1.5 / 8, 19.8 / 8192, "offheap", 4.74 / 8),
  BUCKET_HEAP("BucketCache heap", 7.8 / 8, 47.9 / 8192, "heap", 4.63 / 8),
  BUCKET_OFFHEAP("BucketCache offheap", 1.9 / 8, 48.0 / 8192, "offheap", 4.64 / 8),
  BUCKET_TMPFS("BucketCache file on tmpfs", 1.9 / 8, 48.0 / 8192, "file", 4.64 / 8);

  /** The smallest heap a child JVM gets beyond its L1, whatever the allotment. */
  static final long MIN_HEAP = 128L << 20;

  private static final long MIB = 1L << 20;

  /** The smallest bucket cache: one bucket per default size class. */
  static final long MIN_L2 = 32 * MIB;

  /** The smallest direct memory limit, whatever the allotment leaves beside the heap. */
  static final long MIN_DIRECT = 64 * MIB;

  private static final int BLOCK_SIZE = 65536;

  private final String title;
  private final double heapShare;
  private final double l1Share;
  private final String ioEngine;
  private final double l2Share;

  Deploy(String title, double heapShare, double l1Share, String ioEngine, double l2Share) {
    this.title = title;
    this.heapShare = heapShare;
    this.l1Share = l1Share;
    this.ioEngine = ioEngine;
    this.l2Share = l2Share;
  }

  public String title() {
    return title;
  }

  /** The L2's engine ({@code offheap}, {@code heap}, {@code file}), or null without an L2. */
  public String ioEngine() {
    return ioEngine;
  }

  /** The child JVM's -Xmx (and -Xms) for an allotment of {@code memory} bytes. */
  public long heapBytes(long memory) {
    return Math.max(heapShareBytes(memory), onHeapCacheBytes(memory) + MIN_HEAP);
  }

  /** The child JVM's -XX:MaxDirectMemorySize: what the allotment leaves beside the heap. */
  public long directBytes(long memory) {
    return Math.max(memory - heapBytes(memory), MIN_DIRECT);
  }

  public long l1Bytes(long memory) {
    return Math.max(l1ShareBytes(memory), MIB);
  }

  public long l2Bytes(long memory) {
    return ioEngine == null ? 0 : Math.max(l2ShareBytes(memory), MIN_L2);
  }

  /** The caches' bytes on the heap: the L1, and the L2 when its engine is the heap. */
  long onHeapCacheBytes(long memory) {
    return l1Bytes(memory) + ("heap".equals(ioEngine) ? l2Bytes(memory) : 0);
  }

  /** The seed's share of the allotment for the heap, before any floor. */
  long heapShareBytes(long memory) {
    return Math.round(memory * heapShare);
  }

  long l1ShareBytes(long memory) {
    return Math.round(memory * l1Share);
  }

  long l2ShareBytes(long memory) {
    return ioEngine == null ? 0 : Math.round(memory * l2Share);
  }

  /** The seed's share of the allotment for the heap, in percent. */
  double heapSharePercent() {
    return heapShare * 100;
  }

  /** The configuration of this deploy; a file engine puts its file in {@code tmpfs}. */
  public Map<String, String> config(long memory, Path tmpfs) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("hfile.block.cache.memory.size", Long.toString(l1Bytes(memory)));
    config.put(MissDoorkeeper.ENABLED_KEY, "false");
    if (ioEngine != null) {
      config.put(
          "hbase.bucketcache.ioengine",
          ioEngine.equals("file")
              ? "file:" + tmpfs.resolve("cellar-showdown-bucketcache")
              : ioEngine);
      config.put("hbase.bucketcache.size", Long.toString(l2Bytes(memory) / MIB));
    }
    if (this == SLAB) {
      config.put("cellar.blockcache.inclusive", "true");
      config.put("hbase.bucketcache.bucket.sizes", slot(1.1) + "," + slot(1.4));
    }
    return config;
  }

  /** A slot of {@code factor} times the block size, rounded up to a multiple of 256. */
  private static int slot(double factor) {
    return (int) Math.ceil(BLOCK_SIZE * factor / 256) * 256;
  }
}
