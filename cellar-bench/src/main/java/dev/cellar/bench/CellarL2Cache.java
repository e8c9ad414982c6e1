package dev.cellar.bench;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.bucket.BucketCacheConfig;
import dev.cellar.config.Settings;
import dev.cellar.hfile.BlockHeader;
import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.ChecksumType;
import dev.cellar.hfile.HFileBlock;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;

/**
 * Cellar's {@link BucketCache}, built from {@link #settings()} as {@code BlockCacheFactory} builds
 * it, over Cellar {@link HFileBlock}s. A lookup is {@code getBlockRetained} and a release of the
 * reference it hands out: on the {@code offheap} and {@code heap} engines a zero-copy view of the
 * engine's memory, on {@code file:} a copy read into a pooled buffer.
 */
final class CellarL2Cache extends L2Cache {

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private final BucketCache cache;
  private final BlockCacheKey[] keys;
  private final HFileBlock[] blocks;
  private final int stride;

  CellarL2Cache(Spec spec) throws IOException {
    super(spec);
    cache = BucketCache.create(BucketCacheConfig.from(Settings.of(settings())), allocator);
    int blockBytes = BlockHeader.SIZE + spec.payloadBytes();
    keys = new BlockCacheKey[spec.keys()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new BlockCacheKey(FILE_NAME, offsetOf(i, blockBytes));
    }
    blocks = new HFileBlock[spec.distinctBlocks()];
    for (int i = 0; i < blocks.length; i++) {
      blocks[i] = block(i, spec.payloadBytes());
    }
    stride = longStride(spec.payloadBytes());
  }

  /** Block {@code index} as the reader unpacks it: header then payload in one heap buffer. */
  private static HFileBlock block(int index, int payloadBytes) {
    int blockBytes = BlockHeader.SIZE + payloadBytes;
    BlockHeader header =
        new BlockHeader(
            BlockType.DATA, payloadBytes, payloadBytes, -1, ChecksumType.NULL, 0, blockBytes);
    byte[] bytes = new byte[blockBytes];
    System.arraycopy(payload(index, payloadBytes), 0, bytes, BlockHeader.SIZE, payloadBytes);
    Buf buf = Buf.wrap(bytes);
    header.write(buf, 0);
    return new HFileBlock(header, offsetOf(index, blockBytes), buf, -1);
  }

  @Override
  void cache(int key) {
    cache.cacheBlock(keys[key], blocks[key % blocks.length], false, true);
  }

  @Override
  long read(int key) {
    Cacheable block = cache.getBlockRetained(keys[key], true, false, true);
    if (block == null) {
      throw notCached(key);
    }
    try {
      Buf buf = block.buf();
      long sum = buf.getByte(BlockHeader.SIZE);
      for (int i = 0; i < LONGS_READ; i++) {
        sum += buf.getLong(BlockHeader.SIZE + i * stride);
      }
      return sum;
    } finally {
      block.release();
    }
  }

  @Override
  void awaitDrained() throws InterruptedException {
    if (!cache.awaitQueuedWrites(TIMEOUT_MILLIS)) {
      throw new IllegalStateException("the writer queues did not drain");
    }
  }

  @Override
  long blockCount() {
    return cache.blockCount();
  }

  /** Cellar restores its index before {@code create} returns. */
  @Override
  boolean restored() {
    return true;
  }

  @Override
  long failedInserts() {
    return cache.stats().snapshot().failedInsertions();
  }

  @Override
  long evictedBlocks() {
    return cache.stats().snapshot().evictedBlockCount();
  }

  @Override
  public void close() {
    cache.shutdown();
    for (HFileBlock block : blocks) {
      block.release();
    }
    allocator.close();
  }
}
