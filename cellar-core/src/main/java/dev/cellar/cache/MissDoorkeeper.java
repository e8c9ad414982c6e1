package dev.cellar.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Remembers the data blocks that missed recently, so that a full cache takes a block in only at its
 * second miss (TinyLFU's "doorkeeper", with one slot per fingerprint): a block read once while the
 * cache churns is served and dropped, a block read again soon after is cached. With a working set
 * larger than the cache, most blocks a full LRU cache takes in are evicted before any second read
 * (with a third of uniformly read data cached, two in three); each cost a copy into the cache, an
 * entry, and a share of an eviction run. Uniform reads keep the hit ratio a cache of that size gets
 * either way, since any set of blocks the cache holds is hit as often; skewed reads gain, since
 * blocks read twice within the window are the hot ones.
 *
 * <p>The memory is a direct-mapped table of 64-bit fingerprints of (file id, offset): a block's
 * second miss finds its fingerprint unless another block's miss took the slot since, so the window
 * is about the table's size in misses. A fingerprint is never 0, the empty slot.
 *
 * <p>Concurrency: slots are read and written with opaque accesses and no lock; two misses racing on
 * a slot may lose one's record (that block is then admitted one miss later), which is all a
 * heuristic needs. Memory: one {@code long[]}; nothing is allocated per miss.
 */
public final class MissDoorkeeper {

  /**
   * Setting: whether a full cache takes a missed data block in only at its second miss (default
   * true); false caches every block read, as HBase's caches do.
   */
  public static final String ENABLED_KEY = "cellar.blockcache.doorkeeper";

  /** Cache bytes per slot: about one slot per 64 KiB block the cache holds. */
  static final long BYTES_PER_SLOT = 64 << 10;

  static final int MIN_SLOTS = 64;
  static final int MAX_SLOTS = 1 << 24;

  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] slots;
  private final int mask;

  /** A doorkeeper remembering about {@code capacity} misses (rounded up to a power of two). */
  MissDoorkeeper(int capacity) {
    if (capacity < 1 || capacity > 1 << 30) {
      throw new IllegalArgumentException("doorkeeper capacity must be 1 .. 2^30, was " + capacity);
    }
    this.slots = new long[capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1];
    this.mask = slots.length - 1;
  }

  /** A doorkeeper for a cache of {@code cacheBytes}: a slot per {@link #BYTES_PER_SLOT}. */
  public static MissDoorkeeper forCache(long cacheBytes) {
    return new MissDoorkeeper(Math.clamp(cacheBytes / BYTES_PER_SLOT, MIN_SLOTS, MAX_SLOTS));
  }

  /**
   * Whether a cache filled to {@code used} of {@code capacity}, which evicts from {@code
   * acceptableFactor} of its capacity down to {@code minFactor}, is churning: filled past the
   * minimum less one eviction's swing, a level it leaves only when blocks are freed for another
   * reason than space (files deleted). Below it the cache has room, and takes every block.
   */
  public static boolean churning(
      long used, long capacity, double acceptableFactor, double minFactor) {
    return used >= capacity * (2 * minFactor - acceptableFactor);
  }

  /**
   * Whether a cache ({@code churning} or not) takes in the block that just missed under {@code
   * key}: any block but a data block, any block while the cache has room, else a block at its
   * {@link #secondMiss}. A block left out is counted in {@code stats}.
   */
  public boolean admits(BlockCacheKey key, boolean churning, CacheStats stats) {
    if (key.expectedCategory() != BlockCategory.DATA
        || !churning
        || secondMiss(key.fileId(), key.offset())) {
      return true;
    }
    stats.leftOut();
    return false;
  }

  /** The number of slots. */
  int capacity() {
    return slots.length;
  }

  /**
   * Records a miss of the block at ({@code fileId}, {@code offset}); true if the same block missed
   * recently (its record is then spent), false if this is the first miss the table remembers.
   */
  public boolean secondMiss(long fileId, long offset) {
    long fingerprint = fingerprint(fileId, offset);
    int slot = (int) (fingerprint >>> 32) & mask;
    if ((long) SLOTS.getOpaque(slots, slot) == fingerprint) {
      SLOTS.setOpaque(slots, slot, 0L);
      return true;
    }
    SLOTS.setOpaque(slots, slot, fingerprint);
    return false;
  }

  /** A well-mixed, never-zero 64-bit hash of the block's identity (a MurmurHash3 finalizer). */
  private static long fingerprint(long fileId, long offset) {
    long h = fileId * 0x9E3779B97F4A7C15L + offset;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }
}
