package dev.cellar.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;

/**
 * HBase's own {@link BucketCache} (2.6), built from {@link #settings()} with the arguments HBase's
 * {@code BlockCacheFactory} derives from them (its {@code createBucketCache} is private), over
 * HBase {@link HFileBlock}s built as {@link HBaseL1Cache} builds them but carrying HBase's pooled
 * {@link ByteBuffAllocator}: HBase's file engine reads a cached block into the allocator of the
 * block that was cached, as a region server's blocks carry the server's pool.
 *
 * <p>A lookup is {@code getBlock} and a {@code release()}. On {@code offheap} HBase hands out a new
 * block object over a view of its engine's memory sharing the entry's reference count; on {@code
 * file:} a block over a pooled buffer it read into. The bytes are read through {@code
 * getBufferReadOnly()}, HBase's view of a block's bytes (a duplicate of its buffer).
 *
 * <p>HBase 2.x has no {@code heap} engine (it was removed in 2.0), so asking for one throws.
 */
final class HBaseL2Cache extends L2Cache {

  private static final long MIB = 1024 * 1024;
  private static final int HEADER_SIZE = HFileBlock.headerSize(true);

  private final ByteBuffAllocator allocator = HBaseReaders.pooledAllocator();
  private final BucketCache cache;
  private final BlockCacheKey[] keys;
  private final HFileBlock[] blocks;
  private final int stride;

  HBaseL2Cache(Spec spec) throws IOException {
    super(spec);
    if (spec.ioEngine().equals("heap")) {
      throw new IllegalArgumentException("HBase 2.x has no heap bucket cache engine");
    }
    Configuration conf = new Configuration(HBaseReaders.conf());
    settings().forEach(conf::set);
    cache =
        new BucketCache(
            conf.get(HConstants.BUCKET_CACHE_IOENGINE_KEY),
            (long) conf.getInt(HConstants.BUCKET_CACHE_SIZE_KEY, 0) * MIB,
            conf.getInt(BlockCacheFactory.BLOCKCACHE_BLOCKSIZE_KEY, HConstants.DEFAULT_BLOCKSIZE),
            null,
            conf.getInt(
                BlockCacheFactory.BUCKET_CACHE_WRITER_THREADS_KEY,
                BlockCacheFactory.DEFAULT_BUCKET_CACHE_WRITER_THREADS),
            conf.getInt(
                BlockCacheFactory.BUCKET_CACHE_WRITER_QUEUE_KEY,
                BlockCacheFactory.DEFAULT_BUCKET_CACHE_WRITER_QUEUE),
            conf.get(HConstants.BUCKET_CACHE_PERSISTENT_PATH_KEY),
            BucketCache.DEFAULT_ERROR_TOLERATION_DURATION,
            conf);
    int blockBytes = HEADER_SIZE + spec.payloadBytes();
    keys = new BlockCacheKey[spec.keys()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new BlockCacheKey(FILE_NAME, offsetOf(i, blockBytes), true, BlockType.DATA);
    }
    HFileContext context = new HFileContextBuilder().withHBaseCheckSum(true).build();
    blocks = new HFileBlock[spec.distinctBlocks()];
    for (int i = 0; i < blocks.length; i++) {
      blocks[i] = block(i, spec.payloadBytes(), context);
    }
    stride = longStride(spec.payloadBytes());
  }

  private HFileBlock block(int index, int payloadBytes, HFileContext context) {
    int blockBytes = HEADER_SIZE + payloadBytes;
    ByteBuffer bytes = ByteBuffer.allocate(blockBytes);
    bytes.put(HEADER_SIZE, payload(index, payloadBytes));
    return new HFileBlockBuilder()
        .withBlockType(BlockType.DATA)
        .withOnDiskSizeWithoutHeader(payloadBytes)
        .withUncompressedSizeWithoutHeader(payloadBytes)
        .withPrevBlockOffset(-1)
        .withByteBuff(new SingleByteBuff(bytes))
        .withFillHeader(true)
        .withOffset(offsetOf(index, blockBytes))
        .withNextBlockOnDiskSize(-1)
        .withOnDiskDataSizeWithHeader(blockBytes)
        .withHFileContext(context)
        .withByteBuffAllocator(allocator)
        .withShared(false)
        .build();
  }

  @Override
  void cache(int key) {
    cache.cacheBlock(keys[key], blocks[key % blocks.length], false, true);
  }

  @Override
  long read(int key) {
    Cacheable block = cache.getBlock(keys[key], true, false, true);
    if (block == null) {
      throw notCached(key);
    }
    try {
      ByteBuff buf = ((HFileBlock) block).getBufferReadOnly();
      long sum = buf.get(HEADER_SIZE);
      for (int i = 0; i < LONGS_READ; i++) {
        sum += buf.getLong(HEADER_SIZE + i * stride);
      }
      return sum;
    } finally {
      block.release();
    }
  }

  /**
   * HBase's RAM cache is private; its {@code heapSize()} is the heap of the blocks in it, which
   * goes back to zero once the writers took every block accepted.
   */
  @Override
  void awaitDrained() throws InterruptedException {
    awaitTrue(() -> cache.heapSize() == 0, "the writer queues to drain");
  }

  @Override
  long blockCount() {
    return cache.getBlockCount();
  }

  /** False while HBase checks a restored index whose cache file changed in the background. */
  @Override
  boolean restored() {
    return cache.getBackingMapValidated().get();
  }

  @Override
  long failedInserts() {
    return cache.getStats().getFailedInserts();
  }

  @Override
  long evictedBlocks() {
    return cache.getStats().getEvictedCount();
  }

  @Override
  public void close() {
    cache.shutdown();
    allocator.clean();
  }
}
