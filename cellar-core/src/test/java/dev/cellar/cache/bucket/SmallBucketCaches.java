package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Bucket caches of a few small buckets for a test, with the pooled allocator they use; {@link
 * #close()} shuts them down and checks that every slot and pooled buffer came back.
 */
final class SmallBucketCaches implements AutoCloseable {

  /** 5 and 9 KiB slots, 36 KiB buckets. */
  static final int[] SIZES = {5120, 9216};

  static final long BUCKET = 4L * 9216;

  final BufAllocator allocator;
  private final List<BucketCache> caches = new ArrayList<>();

  /** With pooled buffers of {@code bufferSize} bytes. */
  SmallBucketCaches(int bufferSize) {
    allocator = new BufAllocator(new BufAllocatorConfig(true, bufferSize, 256, 0));
  }

  /** A cache on {@code engine} of {@code buckets} buckets of {@link #SIZES}. */
  BucketCache create(String engine, long buckets) throws IOException {
    return create(BucketCacheConfig.of(engine, buckets * BUCKET).withBucketSizes(SIZES));
  }

  /** A cache of {@code config}, shut down and checked by {@link #close()}. */
  BucketCache create(BucketCacheConfig config) throws IOException {
    BucketCache cache = BucketCache.create(config, allocator);
    caches.add(cache);
    return cache;
  }

  @Override
  public void close() {
    caches.forEach(BucketCache::shutdown);
    for (BucketCache cache : caches) {
      assertEquals(0, cache.liveEntries(), "slots still allocated");
      assertEquals(0, cache.usedSlotBytes(), "allocator not back to empty");
    }
    assertEquals(0, allocator.stats().usedBufferCount(), "pooled buffers still in use");
    allocator.close();
  }
}
