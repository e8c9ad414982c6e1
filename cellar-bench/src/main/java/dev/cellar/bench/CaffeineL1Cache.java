package dev.cellar.bench;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import dev.cellar.hfile.BlockHeader;
import dev.cellar.hfile.HFileBlock;

/**
 * A Caffeine cache as an L1 over Cellar's keys and blocks: bounded by weight, each block weighing
 * its {@link Cacheable#heapSize()}, with maintenance (eviction) on Caffeine's default executor, the
 * common fork-join pool, or on the calling thread. The cache holds one reference per cached block,
 * taken on insert and dropped by the eviction listener, as Cellar's cache does.
 *
 * <p>A lookup is {@code getIfPresent}, a retain, the read and a release. Retaining after the lookup
 * races an eviction that releases the block in between; the lookup benchmark never evicts, and a
 * production cache would need a retain that fails on a released block.
 */
final class CaffeineL1Cache extends L1Cache {

  private final Cache<BlockCacheKey, Cacheable> cache;
  private final BlockCacheKey[] keys;
  private final HFileBlock[] blocks;

  CaffeineL1Cache(long capacity, int keyCount, int distinctBlocks, boolean inlineEviction) {
    Caffeine<Object, Object> builder = Caffeine.newBuilder();
    if (inlineEviction) {
      builder.executor(Runnable::run);
    }
    cache =
        builder
            .maximumWeight(capacity)
            .weigher((BlockCacheKey key, Cacheable block) -> (int) block.heapSize())
            .evictionListener(
                (BlockCacheKey key, Cacheable block, RemovalCause cause) -> block.release())
            .build();
    keys = new BlockCacheKey[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = new BlockCacheKey(FILE_NAME, offsetOf(i, BlockHeader.SIZE + PAYLOAD_BYTES));
    }
    blocks = new HFileBlock[distinctBlocks];
    for (int i = 0; i < distinctBlocks; i++) {
      blocks[i] = CellarL1Cache.block(i);
    }
  }

  @Override
  void cache(int key) {
    Cacheable block = blocks[key % blocks.length].retain();
    if (cache.asMap().putIfAbsent(keys[key], block) != null) {
      block.release();
    }
  }

  @Override
  byte readFirstPayloadByte(int key) {
    Cacheable block = cache.getIfPresent(keys[key]);
    if (block == null) {
      throw notCached(key);
    }
    block.retain();
    try {
      return block.buf().getByte(BlockHeader.SIZE);
    } finally {
      block.release();
    }
  }

  @Override
  long blockCount() {
    return cache.estimatedSize();
  }

  @Override
  long refusedInserts() {
    return 0;
  }

  @Override
  public void close() {
    cache.cleanUp();
    for (Cacheable block : cache.asMap().values()) {
      block.release();
    }
    cache.invalidateAll();
    for (HFileBlock block : blocks) {
      block.release();
    }
  }
}
