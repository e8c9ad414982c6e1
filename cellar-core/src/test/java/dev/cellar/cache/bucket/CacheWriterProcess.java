package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.TestBlock;
import dev.cellar.memory.BufAllocator;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child process of {@link BucketCacheCrashTest}: fills a persistent file-backed bucket cache
 * forever, evicting blocks as it goes so slots are reused after the index was persisted, and prints
 * how many blocks it cached until its parent kills it with SIGKILL. It caches about a thousand
 * blocks a second, so some tens of inserts and evictions happen between two persists.
 *
 * <p>Arguments: cache file, index file, capacity in buckets, seed.
 */
public final class CacheWriterProcess {

  private CacheWriterProcess() {}

  public static void main(String[] args) throws Exception {
    BucketCache cache =
        BucketCache.create(
            BucketCacheCrashTest.config(
                Path.of(args[0]), Path.of(args[1]), Long.parseLong(args[2])),
            BufAllocator.HEAP);
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
    for (int i = 0; ; i++) {
      BlockCacheKey key = BucketCacheCrashTest.key(i);
      TestBlock block = TestBlock.onHeap(key, BucketCacheCrashTest.size(i), BlockCategory.DATA);
      cache.cacheBlock(key, block, false);
      block.release();
      if (i > 10 && random.nextInt(4) == 0) {
        cache.evictBlock(BucketCacheCrashTest.key(random.nextInt(i)));
      }
      Thread.sleep(1);
      if (i % 100 == 0) {
        cache.awaitQueuedWrites(1000);
        System.out.println("cached " + i);
        System.out.flush();
      }
    }
  }
}
