package dev.cellar.bench;

import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.nio.SingleByteBuff;

/**
 * HBase's own {@link LruBlockCache} (2.6) with default factors, evicting on its eviction thread or
 * (without that thread) on the inserting thread, over HBase {@link HFileBlock}s built as its tests
 * build them: heap, not shared ({@code ExclusiveMemHFileBlock}), header filled in. A lookup is
 * {@code getBlock} and a {@code release()} as HBase's reader returns a block, although both
 * reference counts are no-ops for such blocks; the byte is read through {@code
 * getBufferReadOnly()}, HBase's view of a block's bytes.
 *
 * <p>HBase 2.6.1's {@code shutdown()} throws a NullPointerException on a cache without an eviction
 * thread, so such a cache is only cleared; its daemon statistics thread lasts until the fork ends.
 */
final class HBaseL1Cache extends L1Cache {

  private final LruBlockCache cache;
  private final boolean inlineEviction;
  private final BlockCacheKey[] keys;
  private final HFileBlock[] blocks;

  HBaseL1Cache(long capacity, int keyCount, int distinctBlocks, boolean inlineEviction) {
    int blockBytes = HFileBlock.headerSize(true) + PAYLOAD_BYTES;
    cache = new LruBlockCache(capacity, blockBytes, !inlineEviction);
    this.inlineEviction = inlineEviction;
    keys = new BlockCacheKey[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = new BlockCacheKey(FILE_NAME, offsetOf(i, blockBytes), true, BlockType.DATA);
    }
    HFileContext context = new HFileContextBuilder().withHBaseCheckSum(true).build();
    blocks = new HFileBlock[distinctBlocks];
    for (int i = 0; i < distinctBlocks; i++) {
      blocks[i] = block(i, blockBytes, context);
    }
  }

  private static HFileBlock block(int index, int blockBytes, HFileContext context) {
    ByteBuffer bytes = ByteBuffer.allocate(blockBytes);
    bytes.put(HFileBlock.headerSize(true), payload(index));
    return new HFileBlockBuilder()
        .withBlockType(BlockType.DATA)
        .withOnDiskSizeWithoutHeader(PAYLOAD_BYTES)
        .withUncompressedSizeWithoutHeader(PAYLOAD_BYTES)
        .withPrevBlockOffset(-1)
        .withByteBuff(new SingleByteBuff(bytes))
        .withFillHeader(true)
        .withOffset(offsetOf(index, blockBytes))
        .withNextBlockOnDiskSize(-1)
        .withOnDiskDataSizeWithHeader(blockBytes)
        .withHFileContext(context)
        .withByteBuffAllocator(ByteBuffAllocator.HEAP)
        .withShared(false)
        .build();
  }

  @Override
  void cache(int key) {
    cache.cacheBlock(keys[key], blocks[key % blocks.length], false);
  }

  @Override
  byte readFirstPayloadByte(int key) {
    Cacheable block = cache.getBlock(keys[key], true, false, true);
    if (block == null) {
      throw notCached(key);
    }
    try {
      return ((HFileBlock) block).getBufferReadOnly().get(HFileBlock.headerSize(true));
    } finally {
      block.release();
    }
  }

  @Override
  long blockCount() {
    return cache.getBlockCount();
  }

  @Override
  long refusedInserts() {
    return cache.getStats().getFailedInserts();
  }

  @Override
  public void close() {
    if (!inlineEviction) {
      cache.shutdown();
    }
    cache.clearCache();
  }
}
