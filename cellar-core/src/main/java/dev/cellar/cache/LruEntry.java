package dev.cellar.cache;

import dev.cellar.memory.Buf;

/**
 * One block in the {@link LruBlockCache}: the cache's own block (holding the cache's reference),
 * its accounted size, its priority and when it was last read.
 *
 * <p>Concurrency: the priority and the access tick are volatile and written by readers without a
 * lock; a reader racing the eviction scan may see its promotion or touch missed by that scan, which
 * only makes the scan's recency view slightly stale.
 */
final class LruEntry implements EvictionCandidate, BlockMap.Keyed {

  /**
   * The block's key as fields, not a key object: a map lookup reads no other object, and a block
   * cached for a reader's probe costs no copy of the probe ({@link #key()} makes one when needed).
   */
  private final String fileName;

  private final long fileId;
  private final long offset;
  final Cacheable block;

  /**
   * The block's {@linkplain Cacheable#backing() memory} and category, kept here so that a hit
   * retains the block and counts itself from this entry's line: the loads of the buffer's count and
   * of the block object no longer wait on each other.
   */
  final Buf backing;

  /**
   * The generation of {@link #backing} when cached: a block read into a reusable slot shares its
   * buffer object and count with the slot's later reads, so a hit retains it only in this one.
   */
  private final int generation;

  final BlockCategory category;
  final long size;
  private volatile BlockPriority priority;
  private volatile long lastAccess;

  /**
   * @param key the block's key, a probe or a key: the entry keeps its fields, not the object
   */
  LruEntry(BlockCacheKey key, Cacheable block, long size, BlockPriority priority, long tick) {
    this.fileName = key.fileName();
    this.fileId = key.fileId();
    this.offset = key.offset();
    this.block = block;
    this.backing = block.backing();
    this.generation = backing.generation();
    this.category = block.category();
    this.size = size;
    this.priority = priority;
    this.lastAccess = tick;
  }

  /**
   * Retains the block for a hit: false if it was released, or if its buffer was handed out anew
   * since it was cached (a reusable slot's next block, see {@link #generation}).
   */
  boolean tryRetainBlock() {
    return backing.tryRetain(generation);
  }

  /** Records a read at {@code tick}; a block read again moves from SINGLE to MULTI. */
  void access(long tick) {
    lastAccess = tick;
    if (priority == BlockPriority.SINGLE) {
      priority = BlockPriority.MULTI;
    }
  }

  /** A key equal to the one the block was cached under. */
  BlockCacheKey key() {
    return new BlockCacheKey(fileName, offset);
  }

  @Override
  public long keyFileId() {
    return fileId;
  }

  @Override
  public long keyOffset() {
    return offset;
  }

  @Override
  public long evictionSize() {
    return size;
  }

  BlockPriority priority() {
    return priority;
  }

  @Override
  public long lastAccess() {
    return lastAccess;
  }
}
