package dev.cellar.cache;

import dev.cellar.memory.Buf;

/**
 * A block as a cache stores it: a reference-counted {@link Buf}, a size estimate and a category.
 * The cache knows nothing else about the contents.
 *
 * <p>Ownership: a block's references are its buffer's references. A cache that stores a block holds
 * one reference of its own (it retains the block, or stores a copy it owns); a block handed out by
 * a cache carries one more reference, which the receiver must {@link #release()}.
 */
public interface Cacheable {

  /** The block's bytes; valid while the caller holds a reference. */
  Buf buf();

  /**
   * The buffer the block lies at the start of, which may hold more bytes after it (a block read
   * from its file keeps the buffer it was read into): what a cache that keeps the block's own
   * memory accounts for. Its references are the block's. The default is {@link #buf()}.
   */
  default Buf backing() {
    return buf();
  }

  /** The block's length in bytes, {@code buf().capacity()}. */
  default int length() {
    return buf().capacity();
  }

  /** The heap the block occupies when cached on the heap: its bytes plus its objects, in bytes. */
  long heapSize();

  BlockCategory category();

  /**
   * The same block over {@code buf}, which carries the reference the new block owns (used to copy
   * an off-heap block onto the heap). This block is unaffected.
   */
  Cacheable withBuf(Buf buf);

  /** How a cache that stores the block as bytes rebuilds it; its metadata length is fixed. */
  CacheableDeserializer deserializer();

  /**
   * Writes the block's {@link CacheableDeserializer#metadataLength()} bytes of metadata (what its
   * buffer does not hold) to {@code dst} at {@code index}.
   */
  void writeMetadata(Buf dst, int index);

  /** Adds one reference and returns this block. */
  default Cacheable retain() {
    buf().retain();
    return this;
  }

  /**
   * Drops one reference.
   *
   * @return true if that was the last one and the memory was returned
   */
  default boolean release() {
    return buf().release();
  }

  /**
   * Adds one reference unless the block was already released (a lookup racing its eviction).
   *
   * @return false, changing nothing, if the block's memory is gone
   */
  default boolean tryRetain() {
    return buf().tryRetain();
  }

  /**
   * Called once the block's memory was freed by a last release made not through this object but on
   * its buffer's shared count (a cache entry that built the block over its memory and drops its own
   * reference): no reader holds the block, so it may give back what it keeps beside its memory. The
   * default does nothing.
   */
  default void memoryFreed() {}

  /** The current reference count; zero once released. */
  default int refCnt() {
    return buf().refCnt();
  }
}
