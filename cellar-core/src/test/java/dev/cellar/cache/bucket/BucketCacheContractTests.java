package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheContractTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block cache contract against a {@link BucketCache} on every engine. Small bucket sizes (5 and
 * 9 KiB, buckets of 36 KiB) let the contract's small capacities hold enough buckets.
 */
class BucketCacheContractTests {

  static final int[] SMALL_SIZES = {5120, 9216};

  abstract static class OnEngine extends BlockCacheContractTest {

    @TempDir Path directory;

    abstract String engine();

    @Override
    protected BlockCache newCache(long capacity) {
      try {
        return BucketCache.create(
            BucketCacheConfig.of(engine(), capacity).withBucketSizes(SMALL_SIZES), allocator);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    protected void settle(BlockCache cache) {
      try {
        assertTrue(((BucketCache) cache).awaitQueuedWrites(10_000), "writers did not catch up");
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Nested
  class OffHeap extends OnEngine {
    @Override
    String engine() {
      return "offheap";
    }
  }

  @Nested
  class Heap extends OnEngine {
    @Override
    String engine() {
      return "heap";
    }
  }

  @Nested
  class File extends OnEngine {
    @Override
    String engine() {
      return "file:" + directory.resolve("cache.data");
    }
  }

  @Nested
  class Files extends OnEngine {
    @Override
    String engine() {
      return "files:" + directory.resolve("a.data") + "," + directory.resolve("b.data");
    }
  }

  @Nested
  class Mmap extends OnEngine {
    @Override
    String engine() {
      return "mmap:" + directory.resolve("cache.mmap");
    }
  }

  @Nested
  class Pmem extends OnEngine {
    @Override
    String engine() {
      return "pmem:" + directory.resolve("cache.pmem");
    }
  }
}
