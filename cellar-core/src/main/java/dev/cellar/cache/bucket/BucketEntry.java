package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.BlockMap;
import dev.cellar.cache.BlockPriority;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.cache.EvictionCandidate;
import dev.cellar.memory.Recycler;
import dev.cellar.memory.RefCnt;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One block stored in the bucket cache's engine: where its bytes are, how to rebuild it, and the
 * reference count that decides when its slot may be reused.
 *
 * <p><b>One reference count.</b> The entry's {@link RefCnt} starts at one, the reference of the
 * cache's index. Every block handed to a reader adds one, and on a shared-memory engine the
 * reader's block is a view of the engine's memory counting in this very {@code RefCnt}, so the
 * reader's release drops it. {@link #markEvicted()} drops the index's reference exactly once (a CAS
 * on the evicted flag). The slot returns to the allocator only when the count reaches zero, so
 * memory a reader still holds is never reused.
 *
 * <p><b>Concurrency.</b> Immutable but for the access counter and priority (racy updates keep the
 * highest counter seen, which is all eviction needs), the evicted flag, the verified flag, and the
 * lazily built shared block, published with release/acquire semantics. A lookup that races the last
 * release fails its {@code tryRetain} and reports a miss.
 */
final class BucketEntry implements Recycler, EvictionCandidate, BlockMap.Keyed {

  /** What leak reports call an entry (the recorded stack names the caller; no per-entry string). */
  private static final String DESCRIPTION = "bucket cache entry";

  private static final VarHandle EVICTED;
  private static final VarHandle SHARED_BLOCK;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      EVICTED = lookup.findVarHandle(BucketEntry.class, "evicted", boolean.class);
      SHARED_BLOCK = lookup.findVarHandle(BucketEntry.class, "sharedBlock", Cacheable.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The block's key as three fields, not a key object: a map lookup reads no other object, and an
   * entry the cache takes in for a reader's probe costs no copy of the probe ({@link #key()} makes
   * one for the rare caller that wants it).
   */
  private final String fileName;

  private final long keyFileId;
  private final long keyOffset;

  /** Where the entry's slot lies in the engine. */
  final long offset;

  final int contentLength;
  final CacheableDeserializer deserializer;
  final BlockCategory category;
  final int checksum;
  final RefCnt refCnt;
  private final SlotOwner owner;
  private volatile long accessCounter;
  private volatile BlockPriority priority;
  private volatile boolean verified;

  @SuppressWarnings("unused")
  private boolean evicted;

  @SuppressWarnings("unused")
  private Cacheable sharedBlock;

  /** Frees an entry's slot once its last reference is gone. */
  interface SlotOwner {
    void slotReleased(BucketEntry entry);
  }

  /**
   * @param key the block's key, a probe or a key: the entry keeps its fields, not the object
   * @param checksum the stored bytes' checksum, or 0 when the cache does not keep checksums
   * @param verified false for an entry restored after a restart, whose bytes must be checked
   *     against {@code checksum} on its first read
   */
  BucketEntry(
      BlockCacheKey key,
      long offset,
      int contentLength,
      CacheableDeserializer deserializer,
      BlockCategory category,
      BlockPriority priority,
      long accessCounter,
      int checksum,
      boolean verified,
      SlotOwner owner) {
    this.fileName = key.fileName();
    this.keyFileId = key.fileId();
    this.keyOffset = key.offset();
    this.offset = offset;
    this.contentLength = contentLength;
    this.deserializer = deserializer;
    this.category = category;
    this.priority = priority;
    this.accessCounter = accessCounter;
    this.checksum = checksum;
    this.verified = verified;
    this.owner = owner;
    this.refCnt = RefCnt.pooled(this, 0, DESCRIPTION);
  }

  /** Content plus metadata: the bytes the entry occupies in its slot. */
  int storedLength() {
    return contentLength + deserializer.metadataLength();
  }

  /** A key equal to the one the entry was made for. */
  BlockCacheKey key() {
    return new BlockCacheKey(fileName, keyOffset);
  }

  /** The name of the block's file. */
  String fileName() {
    return fileName;
  }

  @Override
  public long keyFileId() {
    return keyFileId;
  }

  @Override
  public long keyOffset() {
    return keyOffset;
  }

  @Override
  public long lastAccess() {
    return accessCounter;
  }

  @Override
  public long evictionSize() {
    return storedLength();
  }

  BlockPriority priority() {
    return priority;
  }

  /** Records a read at {@code counter}; a block read again moves from SINGLE to MULTI. */
  void access(long counter) {
    accessCounter = counter;
    if (priority == BlockPriority.SINGLE) {
      priority = BlockPriority.MULTI;
    }
  }

  boolean verified() {
    return verified;
  }

  void markVerified() {
    verified = true;
  }

  /** True once {@link #markEvicted()} ran. */
  boolean isEvicted() {
    return (boolean) EVICTED.getAcquire(this);
  }

  /**
   * Drops the index's reference, once; the slot is freed now or when the last reader releases.
   *
   * @return true if this call dropped it
   */
  boolean markEvicted() {
    if (!EVICTED.compareAndSet(this, false, true)) {
      return false;
    }
    refCnt.release();
    return true;
  }

  /**
   * True if a reader holds the block, so eviction would not free its slot now: more than the
   * index's reference, or any reference left after the index dropped its own.
   */
  boolean isReferencedByReader() {
    int count = refCnt.refCnt();
    return count > 1 || (count == 1 && isEvicted());
  }

  /** The block built once over a shared-memory view, or null if none was built yet. */
  Cacheable sharedBlock() {
    return (Cacheable) SHARED_BLOCK.getAcquire(this);
  }

  /** Publishes the block built over a shared-memory view; the first one published wins. */
  Cacheable publishSharedBlock(Cacheable block) {
    Cacheable witness = (Cacheable) SHARED_BLOCK.compareAndExchangeRelease(this, null, block);
    return witness == null ? block : witness;
  }

  @Override
  public void recycle(int token) {
    Cacheable shared = sharedBlock();
    if (shared != null) {
      shared.memoryFreed();
    }
    owner.slotReleased(this);
  }

  @Override
  public String toString() {
    return fileName + "@" + keyOffset + "->" + offset + "+" + storedLength();
  }
}
