package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Blocks accepted by the bucket cache but not yet written to its engine, served from memory
 * meanwhile (such a read counts as a hit).
 *
 * <p>Ownership: the map holds one reference to each block; {@link #putIfAbsent} takes it, the
 * removals drop it. Concurrency: a {@link ConcurrentHashMap}; a read retains the block with {@code
 * tryRetain}, so a read racing a removal either keeps a readable block or misses. A count of the
 * entries, raised before an insert and lowered after a removal, so it never reads below the map's
 * size, lets a read skip the map while nothing is queued: the common case once a cache is warm,
 * where a lookup in an empty map still costs a hash and a probe.
 */
final class RamCache {

  private final ConcurrentHashMap<BlockCacheKey, RamEntry> map = new ConcurrentHashMap<>();
  private final AtomicInteger queued = new AtomicInteger();

  /** Adds {@code entry}, retaining its block; false (nothing retained) if the key is present. */
  boolean putIfAbsent(RamEntry entry) {
    entry.block().retain();
    queued.incrementAndGet();
    if (map.putIfAbsent(entry.key(), entry) != null) {
      queued.decrementAndGet();
      entry.block().release();
      return false;
    }
    return true;
  }

  /** The queued block under {@code key} with a reference for the caller, or null. */
  Cacheable getRetained(BlockCacheKey key) {
    if (queued.get() == 0) {
      return null;
    }
    RamEntry entry = map.get(key);
    return entry != null && entry.block().tryRetain() ? entry.block() : null;
  }

  boolean containsKey(BlockCacheKey key) {
    return map.containsKey(key);
  }

  /** True if {@code entry} is still the one queued under its key. */
  boolean isCurrent(RamEntry entry) {
    return map.get(entry.key()) == entry;
  }

  /**
   * Runs {@code publish} and removes {@code entry}, dropping the map's reference, atomically with
   * respect to every other removal of the key (the map's per-key lock); does nothing and returns
   * false if {@code entry} is no longer the one queued under its key.
   */
  boolean publish(RamEntry entry, Runnable publish) {
    boolean[] done = new boolean[1];
    map.computeIfPresent(
        entry.key(),
        (key, current) -> {
          if (current != entry) {
            return current;
          }
          publish.run();
          done[0] = true;
          return null;
        });
    if (done[0]) {
      queued.decrementAndGet();
      entry.block().release();
    }
    return done[0];
  }

  /** Removes {@code entry} if it is still mapped, dropping the map's reference. */
  boolean remove(RamEntry entry) {
    if (!map.remove(entry.key(), entry)) {
      return false;
    }
    queued.decrementAndGet();
    entry.block().release();
    return true;
  }

  /** Removes whatever is queued under {@code key}, dropping the map's reference. */
  boolean remove(BlockCacheKey key) {
    RamEntry entry = map.get(key);
    return entry != null && remove(entry);
  }

  /**
   * Removes every queued block of the file with id {@code fileId}, adding its key to {@code
   * removed}.
   */
  void removeFile(long fileId, Set<BlockCacheKey> removed) {
    for (RamEntry entry : map.values()) {
      if (entry.key().fileId() == fileId && remove(entry)) {
        removed.add(entry.key());
      }
    }
  }

  int size() {
    return map.size();
  }

  long heapSize() {
    long sum = 0;
    for (RamEntry entry : map.values()) {
      sum += entry.block().heapSize();
    }
    return sum;
  }

  /** Drops every queued block. */
  void clear() {
    for (RamEntry entry : map.values()) {
      remove(entry);
    }
  }
}
