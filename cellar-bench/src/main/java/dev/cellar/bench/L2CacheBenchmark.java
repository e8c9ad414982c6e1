package dev.cellar.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The second-level block cache's hit path and insert throughput: Cellar's {@code BucketCache}
 * against HBase's own {@code BucketCache} (2.6), in the same run, on the {@code offheap} engine
 * (zero-copy hits from one off-heap region; HBase: direct buffers) and the {@code file} engine (a
 * file in a temporary directory deleted after the trial; every hit is a positional read into a
 * pooled off-heap buffer, from the OS page cache). See {@link L2Cache} for the blocks and settings.
 *
 * <p><b>Blocks.</b> DATA blocks of {@value #PAYLOAD_BYTES} payload bytes, HBase's default block
 * size, each stored in a 65 KiB slot. {@value #BLOCKS} of them fill {@value #HIT_CAPACITY_MIB} MiB
 * caches about half (so nothing is evicted, whatever the allocator's bucket layout).
 *
 * <p><b>getHit.</b> The cache holds every block, all written to the engine (the writer queues were
 * drained in the setup). One operation looks up a key drawn uniformly from the cached set (from a
 * precomputed sequence per thread), reads the first payload byte and {@value L2Cache#LONGS_READ}
 * longs spread over the payload (eight cache lines of the block: a copying engine has read the
 * whole block, a zero-copy one reads only these), and releases the block.
 *
 * <p><b>cacheBlock.</b> One thread offers {@value #INSERT_KEYS} keys in turn, over and over, to a
 * {@value #INSERT_CAPACITY_MIB} MiB cache holding a few hundred blocks, so nearly every key offered
 * was evicted since its previous turn and the writers free space all along. The blocks offered
 * cycle through {@value #INSERTED_BLOCKS} prebuilt ones. With {@code whenFull=drop} an offer to a
 * full writer queue fails at once (the default, {@code
 * hbase.bucketcache.queue.addition.waittime=0}), so the score is mostly the cost of accepting or
 * refusing an insert while the writers copy in the background; with {@code whenFull=wait} the offer
 * waits up to {@value #QUEUE_WAIT_MILLIS} ms for room, so the score is the writers' throughput:
 * copying, allocating slots and freeing space. Offers, refusals, evictions and blocks cached are
 * printed at the end of each trial. Offered a key it still holds, HBase reads its block back and
 * compares the two byte for byte in two new heap arrays ({@code
 * BlockCacheUtil.shouldReplaceExistingCacheBlock}), most of its heap bytes per offer here; Cellar
 * returns at once.
 *
 * <p>Scores are operations per microsecond summed over the threads. {@code gc.alloc.rate.norm} is
 * the heap bytes per operation allocated by all threads, the caches' writer threads included.
 *
 * <p>Run: {@code ./cellar bench jmh L2CacheBenchmark} (16 forks of about 10 s). Cellar also has a
 * {@code heap} engine (HBase 2.x has none): {@code ./cellar bench jmh L2CacheBenchmark -p
 * cache=cellar -p engine=heap}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class L2CacheBenchmark extends BenchmarkBase {

  /** HBase's default block size. */
  static final int PAYLOAD_BYTES = 64 * 1024;

  /** Blocks in the cached set of the lookup benchmarks: 128 MiB of payload. */
  static final int BLOCKS = 2_000;

  static final int HIT_CAPACITY_MIB = 256;

  /** Keys the insert benchmark cycles through. */
  static final int INSERT_KEYS = 20_000;

  static final int INSERT_CAPACITY_MIB = 64;

  /** Distinct blocks cached under the keys. */
  static final int INSERTED_BLOCKS = 64;

  static final long QUEUE_WAIT_MILLIS = 100;

  @Param({L2Cache.CELLAR, L2Cache.HBASE})
  public String cache;

  /**
   * {@code offheap} or {@code file} (a file in a temporary directory); Cellar also has {@code
   * heap}.
   */
  @Param({"offheap", "file"})
  public String engine;

  @Benchmark
  @Threads(1)
  public long getHit(HitCache hits, Picks picks) {
    return hits.cache.read(picks.next());
  }

  @Benchmark
  @Threads(2)
  public long getHitTwoThreads(HitCache hits, Picks picks) {
    return hits.cache.read(picks.next());
  }

  @Benchmark
  @Threads(1)
  public void cacheBlock(InsertCache inserts) {
    inserts.offer();
  }

  /** The engine {@code engine} names, with its file in {@code dir}. */
  private String ioEngine(TempDir dir) {
    return engine.equals("file") ? "file:" + dir.resolve("bucket.cache") : engine;
  }

  /** A cache holding all {@value #BLOCKS} blocks, written to its engine. */
  @State(Scope.Benchmark)
  public static class HitCache {

    L2Cache cache;
    private TempDir dir;

    @Setup
    public void setUp(L2CacheBenchmark benchmark) throws IOException, InterruptedException {
      dir = new TempDir("cellar-l2-");
      cache =
          L2Cache.open(
              benchmark.cache,
              new L2Cache.Spec(
                  benchmark.ioEngine(dir),
                  HIT_CAPACITY_MIB,
                  PAYLOAD_BYTES,
                  BLOCKS,
                  INSERTED_BLOCKS,
                  null,
                  0));
      cache.cacheAllAndDrain();
    }

    @TearDown
    public void tearDown() {
      cache.close();
      dir.close();
    }
  }

  /** A cache with room for a few hundred of the blocks offered, and the next key to offer. */
  @State(Scope.Benchmark)
  public static class InsertCache {

    /** What an offer to a full writer queue does: {@code drop} the block or {@code wait}. */
    @Param({"drop", "wait"})
    public String whenFull;

    private L2Cache cache;
    private TempDir dir;
    private String name;
    private int next;
    private long offers;

    @Setup
    public void setUp(L2CacheBenchmark benchmark) throws IOException {
      name = benchmark.cache + " " + benchmark.engine + " (" + whenFull + ")";
      dir = new TempDir("cellar-l2-");
      long queueWait = whenFull.equals("wait") ? QUEUE_WAIT_MILLIS : 0;
      cache =
          L2Cache.open(
              benchmark.cache,
              new L2Cache.Spec(
                  benchmark.ioEngine(dir),
                  INSERT_CAPACITY_MIB,
                  PAYLOAD_BYTES,
                  INSERT_KEYS,
                  INSERTED_BLOCKS,
                  null,
                  queueWait));
    }

    void offer() {
      cache.cache(next);
      next = next + 1 == INSERT_KEYS ? 0 : next + 1;
      offers++;
    }

    @TearDown
    public void tearDown() {
      System.out.println(
          name
              + ": "
              + offers
              + " offers, "
              + cache.failedInserts()
              + " refused, "
              + cache.evictedBlocks()
              + " evicted, "
              + cache.blockCount()
              + " blocks cached");
      cache.close();
      dir.close();
    }
  }

  /** One thread's uniformly random keys of the cached set, drawn before the measurement. */
  @State(Scope.Thread)
  public static class Picks {

    private RandomKeys keys;

    @Setup
    public void setUp(ThreadParams thread) {
      keys = new RandomKeys(42 + thread.getThreadIndex(), BLOCKS);
    }

    int next() {
      return keys.next();
    }
  }
}
