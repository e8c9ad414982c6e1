package dev.cellar.store;

import dev.cellar.cache.BlockCache;
import dev.cellar.config.Settings;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WriteAheadLog;

/**
 * Region services for store tests: flushes and compactions run inline on the calling thread,
 * HBase's default compaction policy unless given, no compaction throughput limit, no compressed
 * caching.
 */
final class InlineServices {

  private InlineServices() {}

  static Region.Services of(
      Storage storage,
      WriteAheadLog wal,
      BlockCache cache,
      BufAllocator allocator,
      ChunkPool chunkPool,
      MemStoreConfig memStoreConfig) {
    return of(storage, wal, cache, allocator, chunkPool, memStoreConfig, Settings.empty());
  }

  /** With the compaction policy {@code policySettings} give. */
  static Region.Services of(
      Storage storage,
      WriteAheadLog wal,
      BlockCache cache,
      BufAllocator allocator,
      ChunkPool chunkPool,
      MemStoreConfig memStoreConfig,
      Settings policySettings) {
    return new Region.Services(
        storage,
        wal,
        cache,
        allocator,
        chunkPool,
        memStoreConfig,
        CompactionPolicy.from(policySettings, memStoreConfig.flushSize()),
        Runnable::run,
        Runnable::run,
        false,
        CompactionThrottle.NONE);
  }
}
