package dev.cellar.cache.bucket;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Persists a bucket cache's index every {@link BucketCacheConfig#persistIntervalMillis()} when it
 * changed, on a daemon thread named {@value BucketCache#PERSISTER_THREAD_NAME}, and once more at
 * shutdown. Before each write the engine is synced, so every slot the index names was written
 * through; the entries' checksums catch what changed after (see {@link BucketIndexFile}).
 *
 * <p>Concurrency: one thread persists at a time ({@code synchronized persist}); the index is read
 * from the live, weakly consistent map, which the checksums make safe (an entry evicted and its
 * slot reused during the write fails verification after a restart).
 */
final class BucketCachePersister {

  private static final Logger LOG = LoggerFactory.getLogger(BucketCachePersister.class);

  private final BucketCache cache;
  private final BucketCacheConfig config;
  private Thread thread;
  private volatile boolean stopped;

  BucketCachePersister(BucketCache cache, BucketCacheConfig config) {
    this.cache = cache;
    this.config = config;
  }

  void start() {
    thread = Thread.ofPlatform().name(BucketCache.PERSISTER_THREAD_NAME).daemon().start(this::run);
  }

  private void run() {
    while (!stopped) {
      try {
        Thread.sleep(config.persistIntervalMillis());
      } catch (InterruptedException e) {
        continue;
      }
      if (!stopped && cache.takeIndexChanged()) {
        persistLogged();
      }
    }
  }

  /** Stops the thread and writes the index a last time. */
  void stopAndPersist() {
    stopped = true;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    persistLogged();
  }

  private void persistLogged() {
    try {
      persist();
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "bucket cache {}: persisting the index to {} failed",
          cache.ioEngine(),
          config.persistentPath(),
          e);
    }
  }

  /** Syncs the engine and writes the index now. */
  synchronized void persist() throws IOException {
    cache.engine().sync();
    BucketIndexFile.write(
        config.persistentPath(),
        cache.totalSize(),
        cache.ioEngine(),
        config.bucketSizes(),
        cache.entries());
  }
}
