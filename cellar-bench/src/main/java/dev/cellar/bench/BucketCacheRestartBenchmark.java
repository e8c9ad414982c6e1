package dev.cellar.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A warm restart of a persistent bucket cache: Cellar's {@code BucketCache} against HBase's own
 * (2.6), both on the {@code file} engine with {@code hbase.bucketcache.persistent.path} set.
 *
 * <p><b>Setup (once per trial).</b> A cache file in a temporary directory (deleted after the trial)
 * is filled with {@value #BLOCKS} DATA blocks of {@value #PAYLOAD_BYTES} payload bytes, each in a 5
 * KiB slot (about 500 MiB of the {@value #CAPACITY_MIB} MiB file), and the cache is shut down,
 * which persists its index next to the file. See {@link L2Cache} for the blocks and settings.
 *
 * <p><b>restart.</b> One shot opens the cache again over the same file and index and waits until it
 * serves all {@value #BLOCKS} blocks: Cellar reads its index file before {@code create} returns;
 * HBase reads its protobuf index in the constructor and checks the cache file's path, size and
 * modification time against the digest it persisted (were they to differ, it would check every
 * block in the background, which the shot would wait for). The shot includes building the adapter's
 * {@value #BLOCKS} keys, the same work for both. The cache is shut down (persisting its index
 * again) after each shot, outside the measurement.
 *
 * <p><b>firstReads.</b> The cache is restarted before each shot, outside the measurement; one shot
 * reads every block once, in file order, as {@link L2CacheBenchmark} reads a block. Each read is a
 * positional read from the file (in the OS page cache, which the setup just filled). Cellar checks
 * each restored block's CRC32C on its first read, so this is the price of its verification; HBase
 * checks only the 8-byte write time it stores in front of each block, and reads restored blocks
 * into heap buffers (its restored entries carry {@code ByteBuffAllocator.HEAP}).
 *
 * <p>Scores are milliseconds per shot. {@code gc.alloc.rate.norm} is the heap bytes per shot, and
 * JMH counts an iteration's setup and teardown in it: {@code restart}'s includes the shutdown that
 * follows it, {@code firstReads}' the restart before it as well, so the bytes the reads allocate
 * are the difference of the two.
 *
 * <p>Run: {@code ./cellar bench jmh BucketCacheRestartBenchmark} (4 forks; each fills a cache of
 * about 500 MiB in a temporary directory first).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class BucketCacheRestartBenchmark extends BenchmarkBase {

  static final int BLOCKS = 100_000;

  static final int PAYLOAD_BYTES = 4096;

  static final int CAPACITY_MIB = 600;

  /** Distinct blocks cached under the keys. */
  static final int DISTINCT_BLOCKS = 64;

  @Param({L2Cache.CELLAR, L2Cache.HBASE})
  public String cache;

  @Benchmark
  public long restart(StoredCache stored, Reopened reopened)
      throws IOException, InterruptedException {
    reopened.cache = L2Cache.open(cache, stored.spec);
    reopened.cache.awaitRestored();
    return reopened.cache.blockCount();
  }

  @Benchmark
  public long firstReads(Restarted restarted) {
    long sum = 0;
    for (int key = 0; key < BLOCKS; key++) {
      sum += restarted.cache.read(key);
    }
    return sum;
  }

  /** The filled cache file and its persisted index. */
  @State(Scope.Benchmark)
  public static class StoredCache {

    L2Cache.Spec spec;
    private TempDir dir;

    @Setup(Level.Trial)
    public void setUp(BucketCacheRestartBenchmark benchmark)
        throws IOException, InterruptedException {
      dir = new TempDir("cellar-l2-restart-");
      spec =
          new L2Cache.Spec(
              "file:" + dir.resolve("bucket.cache"),
              CAPACITY_MIB,
              PAYLOAD_BYTES,
              BLOCKS,
              DISTINCT_BLOCKS,
              dir.resolve("bucket.index"),
              0);
      try (L2Cache filled = L2Cache.open(benchmark.cache, spec)) {
        filled.cacheAllAndDrain();
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      dir.close();
    }
  }

  /** The cache a {@code restart} shot opened, shut down after the shot. */
  @State(Scope.Benchmark)
  public static class Reopened {

    L2Cache cache;

    @TearDown(Level.Iteration)
    public void tearDown() {
      cache.close();
      cache = null;
    }
  }

  /** The cache restarted before each {@code firstReads} shot and shut down after it. */
  @State(Scope.Benchmark)
  public static class Restarted {

    L2Cache cache;

    @Setup(Level.Iteration)
    public void setUp(BucketCacheRestartBenchmark benchmark, StoredCache stored)
        throws IOException, InterruptedException {
      cache = L2Cache.open(benchmark.cache, stored.spec);
      cache.awaitRestored();
    }

    @TearDown(Level.Iteration)
    public void tearDown() {
      cache.close();
    }
  }
}
