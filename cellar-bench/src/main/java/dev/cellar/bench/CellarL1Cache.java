package dev.cellar.bench;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.hfile.BlockHeader;
import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.ChecksumType;
import dev.cellar.hfile.HFileBlock;
import dev.cellar.memory.Buf;

/**
 * Cellar's {@link LruBlockCache} with default factors, evicting on its own eviction thread or on
 * the inserting thread. A lookup is {@code getBlockRetained} and a release of the reference it
 * hands out.
 */
final class CellarL1Cache extends L1Cache {

  private final LruBlockCache cache;
  private final BlockCacheKey[] keys;
  private final HFileBlock[] blocks;

  CellarL1Cache(long capacity, int keyCount, int distinctBlocks, boolean inlineEviction) {
    LruBlockCacheConfig config = LruBlockCacheConfig.withCapacity(capacity);
    cache =
        inlineEviction ? new LruBlockCache(config, Runnable::run) : LruBlockCache.create(config);
    keys = new BlockCacheKey[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = new BlockCacheKey(FILE_NAME, offsetOf(i, BlockHeader.SIZE + PAYLOAD_BYTES));
    }
    blocks = new HFileBlock[distinctBlocks];
    for (int i = 0; i < distinctBlocks; i++) {
      blocks[i] = block(i);
    }
  }

  /** Block {@code index} as the reader unpacks it: header then payload in one heap buffer. */
  static HFileBlock block(int index) {
    int blockBytes = BlockHeader.SIZE + PAYLOAD_BYTES;
    BlockHeader header =
        new BlockHeader(
            BlockType.DATA, PAYLOAD_BYTES, PAYLOAD_BYTES, -1, ChecksumType.NULL, 0, blockBytes);
    byte[] bytes = new byte[blockBytes];
    System.arraycopy(payload(index), 0, bytes, BlockHeader.SIZE, PAYLOAD_BYTES);
    Buf buf = Buf.wrap(bytes);
    header.write(buf, 0);
    return new HFileBlock(header, offsetOf(index, blockBytes), buf, -1);
  }

  @Override
  void cache(int key) {
    cache.cacheBlock(keys[key], blocks[key % blocks.length], false);
  }

  @Override
  byte readFirstPayloadByte(int key) {
    Cacheable block = cache.getBlockRetained(keys[key], true, false, true);
    if (block == null) {
      throw notCached(key);
    }
    try {
      return block.buf().getByte(BlockHeader.SIZE);
    } finally {
      block.release();
    }
  }

  @Override
  long blockCount() {
    return cache.blockCount();
  }

  @Override
  long refusedInserts() {
    return cache.stats().snapshot().failedInsertions();
  }

  @Override
  public void close() {
    cache.shutdown();
    for (HFileBlock block : blocks) {
      block.release();
    }
  }
}
