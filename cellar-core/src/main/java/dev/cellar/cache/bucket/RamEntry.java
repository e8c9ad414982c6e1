package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;

/**
 * A block accepted by the bucket cache and waiting in a writer's queue. The RAM cache holds one
 * reference to the block until the entry is written (or dropped); readers meanwhile get the block
 * itself, retained. Immutable, compared by identity (two inserts of one key are different entries).
 */
final class RamEntry {

  private final BlockCacheKey key;
  private final Cacheable block;
  private final long accessCounter;
  private final boolean inMemory;

  RamEntry(BlockCacheKey key, Cacheable block, long accessCounter, boolean inMemory) {
    this.key = key;
    this.block = block;
    this.accessCounter = accessCounter;
    this.inMemory = inMemory;
  }

  BlockCacheKey key() {
    return key;
  }

  Cacheable block() {
    return block;
  }

  long accessCounter() {
    return accessCounter;
  }

  boolean inMemory() {
    return inMemory;
  }
}
