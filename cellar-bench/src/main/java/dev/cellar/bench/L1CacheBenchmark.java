package dev.cellar.bench;

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
 * The first-level block cache's hit path and insert throughput: Cellar's {@code LruBlockCache}
 * against HBase's own {@code LruBlockCache} (2.6, over HBase blocks) and a Caffeine cache (over
 * Cellar's blocks), all in the same run, from one thread and from two threads sharing the cache.
 *
 * <p><b>Blocks.</b> {@value #BLOCKS} heap DATA blocks with a {@value L1Cache#PAYLOAD_BYTES}-byte
 * payload behind their header: real data blocks are about 64 KiB, but the block size only changes
 * the memory the cache holds, not the work of a lookup or an insert, and 4 KiB keeps the cached set
 * (about 41 MB) well inside the benchmarks' 1 GiB heap.
 *
 * <p><b>getHit.</b> The cache holds every block, with room to spare, so nothing is evicted. One
 * operation looks up a key drawn uniformly from the cached set (from a precomputed sequence per
 * thread), reads the block's first payload byte and gives the block back as the cache's API asks
 * (see {@link CellarL1Cache}, {@link HBaseL1Cache}, {@link CaffeineL1Cache}).
 *
 * <p><b>cacheBlock.</b> Each thread inserts {@value #BLOCKS} keys of its own in turn, over and
 * over, into a cache whose capacity is half of those blocks' payload bytes, so every insert is of a
 * key evicted since its previous turn and the caches evict all along. With {@code
 * eviction=background} Cellar and HBase evict on their eviction threads, Caffeine on the common
 * fork-join pool; an inserting thread outruns them, and Cellar and HBase then refuse inserts at
 * their hard limit, which is cheaper than an insert, and offers of keys still cached return at once
 * (the refusals are printed at the end of each trial). With {@code eviction=inline} every cache
 * evicts on the inserting thread, so from one thread every insert is accepted and pays its share of
 * eviction; from two, one thread evicts while the other can still reach the hard limit. The blocks
 * inserted cycle through {@value #INSERTED_BLOCKS} prebuilt ones, so the allocation measured is the
 * cache's own.
 *
 * <p>Scores are operations per microsecond summed over the threads; {@code gc.alloc.rate.norm} is
 * the heap bytes per operation.
 *
 * <p>Run: {@code ./cellar bench jmh L1CacheBenchmark} (add {@code -p cache=cellar,hbase} for a
 * subset).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class L1CacheBenchmark extends BenchmarkBase {

  /** Blocks in the cached set, and keys each inserting thread cycles through. */
  static final int BLOCKS = 10_000;

  /** Distinct blocks the insert benchmarks cache under their keys. */
  static final int INSERTED_BLOCKS = 64;

  /** Inserting threads the insert cache has keys for. */
  static final int MAX_THREADS = 2;

  @Param({L1Cache.CELLAR, L1Cache.HBASE, L1Cache.CAFFEINE})
  public String cache;

  @Benchmark
  @Threads(1)
  public byte getHit(HitCache hits, Picks picks) {
    return hits.cache.readFirstPayloadByte(picks.next());
  }

  @Benchmark
  @Threads(2)
  public byte getHitTwoThreads(HitCache hits, Picks picks) {
    return hits.cache.readFirstPayloadByte(picks.next());
  }

  @Benchmark
  @Threads(1)
  public void cacheBlock(InsertCache inserts, InsertKeys keys) {
    inserts.cache.cache(keys.next());
  }

  @Benchmark
  @Threads(MAX_THREADS)
  public void cacheBlockTwoThreads(InsertCache inserts, InsertKeys keys) {
    inserts.cache.cache(keys.next());
  }

  /** A cache holding all {@value #BLOCKS} blocks in less than half its capacity. */
  @State(Scope.Benchmark)
  public static class HitCache {

    L1Cache cache;

    @Setup
    public void setUp(L1CacheBenchmark benchmark) {
      long capacity = 2L * BLOCKS * (L1Cache.PAYLOAD_BYTES + 1024);
      cache = L1Cache.named(benchmark.cache, capacity, BLOCKS, BLOCKS, false);
      for (int key = 0; key < BLOCKS; key++) {
        cache.cache(key);
      }
      if (cache.blockCount() != BLOCKS) {
        throw new IllegalStateException(
            benchmark.cache + " cached " + cache.blockCount() + " of " + BLOCKS + " blocks");
      }
    }

    @TearDown
    public void tearDown() {
      cache.close();
    }
  }

  /** A cache with room for about half the blocks one thread inserts. */
  @State(Scope.Benchmark)
  public static class InsertCache {

    /** Where the cache evicts: {@code background} (its own thread) or {@code inline}. */
    @Param({"background", "inline"})
    public String eviction;

    L1Cache cache;
    private String name;

    @Setup
    public void setUp(L1CacheBenchmark benchmark) {
      name = benchmark.cache;
      long capacity = (long) BLOCKS * L1Cache.PAYLOAD_BYTES / 2;
      boolean inline = eviction.equals("inline");
      cache = L1Cache.named(name, capacity, MAX_THREADS * BLOCKS, INSERTED_BLOCKS, inline);
    }

    @TearDown
    public void tearDown() {
      System.out.println(
          name
              + " ("
              + eviction
              + "): "
              + cache.refusedInserts()
              + " inserts refused, "
              + cache.blockCount()
              + " blocks cached");
      cache.close();
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

  /** One thread's own {@value #BLOCKS} insert keys, taken in turn. */
  @State(Scope.Thread)
  public static class InsertKeys {

    private int first;
    private int next;

    @Setup
    public void setUp(ThreadParams thread) {
      first = thread.getThreadIndex() * BLOCKS;
    }

    int next() {
      int key = first + next;
      next = next + 1 == BLOCKS ? 0 : next + 1;
      return key;
    }
  }
}
