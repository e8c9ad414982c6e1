package dev.cellar.cache;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufSource;

/** A cacheable block for tests, whose bytes are a pattern derived from its key. */
public final class TestBlock implements Cacheable {

  static final long OBJECT_OVERHEAD = 48;

  private final Buf buf;
  private final BlockCategory category;

  TestBlock(Buf buf, BlockCategory category) {
    this.buf = buf;
    this.category = category;
  }

  /** A block for {@code key} in a buffer from {@code allocator}, holding one reference. */
  public static TestBlock allocate(
      BufAllocator allocator, BlockCacheKey key, int size, BlockCategory category) {
    Buf buf = allocator.allocate(size);
    for (int i = 0; i < size; i++) {
      buf.putByte(i, expected(key, i));
    }
    return new TestBlock(buf, category);
  }

  /**
   * A block for {@code key} read into memory a cache lent ({@link BlockCache#blockMemory}), as a
   * block read from a file lands there: the block at the start, {@code trailing} other bytes (its
   * checksums, the next block's header) after it. Holds the lent buffer's reference.
   */
  public static TestBlock readInto(
      BufSource memory, BlockCacheKey key, int size, int trailing, BlockCategory category) {
    Buf lent = memory.takeRetained(size + trailing);
    for (int i = 0; i < size; i++) {
      lent.putByte(i, expected(key, i));
    }
    for (int i = size; i < size + trailing; i++) {
      lent.putByte(i, (byte) 0x5A);
    }
    return new TestBlock(lent.slice(0, size), category);
  }

  /** A block for {@code key} over a heap array. */
  public static TestBlock onHeap(BlockCacheKey key, int size, BlockCategory category) {
    return allocate(BufAllocator.HEAP, key, size, category);
  }

  static byte expected(BlockCacheKey key, int index) {
    long seed =
        key.fileName().hashCode() * 0x9E3779B97F4A7C15L + key.offset() * 0xC2B2AE3D27D4EB4FL;
    long mixed = (seed + index) * 0xFF51AFD7ED558CCDL;
    return (byte) (mixed >>> 56);
  }

  /** The index of the first byte of {@code block} that is not {@code key}'s pattern, or -1. */
  public static int firstMismatch(Cacheable block, BlockCacheKey key, int size) {
    Buf buf = block.buf();
    if (buf.capacity() != size) {
      return 0;
    }
    for (int i = 0; i < size; i++) {
      if (buf.getByte(i) != expected(key, i)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public Buf buf() {
    return buf;
  }

  @Override
  public long heapSize() {
    return buf.capacity() + OBJECT_OVERHEAD;
  }

  @Override
  public BlockCategory category() {
    return category;
  }

  @Override
  public Cacheable withBuf(Buf newBuf) {
    return new TestBlock(newBuf, category);
  }

  @Override
  public CacheableDeserializer deserializer() {
    return TestBlockDeserializer.INSTANCE;
  }

  @Override
  public void writeMetadata(Buf dst, int index) {
    dst.putByte(index, (byte) category.ordinal());
  }
}
