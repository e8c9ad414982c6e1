package dev.cellar.hfile;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.FileIds;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.memory.BufSource;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BlockLoader} with a block cache in front: a lookup, and on a miss one read per block
 * (concurrent readers of the same block wait for it rather than read it again), then insertion and
 * hand-out. Index and bloom blocks are always cached; data blocks when the caller asks.
 *
 * <p>Concurrency: misses of the same block serialize on one of {@value #LOCK_STRIPES} striped locks
 * chosen by the block's key, and look the cache up again once they hold it (HBase's per-block lock,
 * as a fixed array so nothing is allocated per miss); different blocks mostly take different
 * stripes. Hits take no lock.
 *
 * <p><b>Admission.</b> A missed block whose category the caller named is read into the cache only
 * if the cache {@linkplain BlockCache#admitsOnMiss admits} it (a churning cache takes a data block
 * at its second miss); otherwise it is read, without the miss lock, into the memory the cache names
 * for blocks it does not keep, and handed to the caller alone.
 *
 * <p><b>Miss-ratio curve.</b> Every lookup of a data block (hit or miss) is shown to the database's
 * {@link MissRatioCurveTracker}, if any, once the block is in hand: a hash and a compare for the
 * blocks it does not sample.
 *
 * <p><b>Compressed caching</b> ({@code hbase.block.data.cachecompressed}, HBase's): for a
 * compressed file read directly, data blocks are cached packed ({@link PackedBlock}: the compressed
 * bytes, checksums verified) and every hit decompresses them into a new pooled block for its
 * caller; index and bloom blocks are cached unpacked as always. A packed block found in the cache
 * (a persistent L2 written with the setting on) is unpacked whatever the setting now.
 *
 * <p>Memory: every block handed out carries one reference for the caller. The cache holds its own
 * reference (or its own heap copy, for an on-heap L1), so a block stays readable by its holder
 * after the cache evicts it. A missed block is read into the memory the cache offers for its
 * category ({@link BlockCache#blockMemory}: an on-heap L1's recycled arrays, a slot of an L2 whose
 * readers share its memory), which the cache then keeps as it is: one copy from the file instead of
 * two. A miss hands out the cache's copy when the cache made one, releasing the pooled buffer it
 * was read into at once: the readers of a block then get the same kind of memory (heap or native)
 * on a miss as on a hit, so the JIT compiles their accesses for one kind rather than both, which
 * made scans of an on-heap L1 about a quarter slower. A cache that throws while taking a block does
 * not fail the read: the block read is handed out uncached, and the failure is logged (the first
 * one per file as a warning).
 */
public final class CachingBlockLoader implements BlockLoader {

  /** Striped miss locks; a power of two. */
  private static final int LOCK_STRIPES = 256;

  private static final Logger LOG = LoggerFactory.getLogger(CachingBlockLoader.class);

  /** Each reader thread's lookup key, re-pointed per lookup so a hit allocates nothing. */
  private static final ThreadLocal<BlockCacheKey.Probe> PROBES =
      ThreadLocal.withInitial(BlockCacheKey.Probe::new);

  private final BlockCache cache;
  private final BlockLoader source;
  private final String fileName;
  private final long fileId;
  private final boolean inMemory;

  /** Reads and unpacks packed blocks: the source's reader when the file is compressed. */
  private final BlockReader packing;

  private final boolean cacheCompressedData;
  private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
  private final AtomicLong cacheFailures = new AtomicLong();
  private final MissRatioCurveTracker curve;

  /**
   * @param cache the cache to consult and fill
   * @param source where missed blocks are read from (the file's direct loader)
   * @param fileName the file's name, half of every block's cache key
   * @param inMemory whether the file's blocks get the in-memory priority (IN_MEMORY families)
   */
  public CachingBlockLoader(
      BlockCache cache, BlockLoader source, String fileName, boolean inMemory) {
    this(cache, source, fileName, inMemory, false);
  }

  /** As above; {@code cacheCompressedData} caches the data blocks of a compressed file packed. */
  public CachingBlockLoader(
      BlockCache cache,
      BlockLoader source,
      String fileName,
      boolean inMemory,
      boolean cacheCompressedData) {
    this(cache, source, fileName, inMemory, cacheCompressedData, null);
  }

  /**
   * As above; every lookup that would cache its block is shown to {@code curve} (null for none).
   */
  public CachingBlockLoader(
      BlockCache cache,
      BlockLoader source,
      String fileName,
      boolean inMemory,
      boolean cacheCompressedData,
      MissRatioCurveTracker curve) {
    this.curve = curve;
    this.cache = cache;
    this.source = source;
    this.fileName = fileName;
    this.fileId = FileIds.idOf(fileName);
    this.inMemory = inMemory;
    this.packing =
        source instanceof DirectBlockLoader direct && direct.reader().compressed()
            ? direct.reader()
            : null;
    this.cacheCompressedData = cacheCompressedData && packing != null;
    for (int i = 0; i < LOCK_STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  @Override
  public HFileBlock loadBlock(
      long offset, int onDiskSizeWithHeader, BlockType expectedType, boolean cacheBlock)
      throws IOException {
    boolean caching = cacheBlock || (expectedType != null && !expectedType.isData());
    HFileBlock block = load(offset, onDiskSizeWithHeader, expectedType, caching);
    if (curve != null && block.type().isData()) {
      curve.access(fileId, offset, block);
    }
    return block;
  }

  private HFileBlock load(
      long offset, int onDiskSizeWithHeader, BlockType expectedType, boolean caching)
      throws IOException {
    BlockCacheKey key =
        PROBES
            .get()
            .set(
                fileName,
                fileId,
                offset,
                expectedType == null ? null : HFileBlock.categoryOf(expectedType));
    HFileBlock hit = lookup(key, caching, false, offset, expectedType);
    if (hit != null) {
      return hit;
    }
    if (!caching || (expectedType != null && !cache.admitsOnMiss(key))) {
      HFileBlock block =
          source.loadBlock(
              offset,
              onDiskSizeWithHeader,
              expectedType,
              false,
              expectedType == null ? null : cache.uncachedBlockMemory(key.expectedCategory()));
      block.markLeftOut();
      return block;
    }
    ReentrantLock lock = locks[key.hashCode() & (LOCK_STRIPES - 1)];
    lock.lock();
    try {
      HFileBlock loadedMeanwhile = lookup(key, true, true, offset, expectedType);
      if (loadedMeanwhile != null) {
        return loadedMeanwhile;
      }
      if (cacheCompressedData) {
        return loadPackedAndCache(key, offset, onDiskSizeWithHeader, expectedType);
      }
      BufSource memory = cache.blockMemory(key.expectedCategory());
      HFileBlock block = source.loadBlock(offset, onDiskSizeWithHeader, expectedType, true, memory);
      offer(key, block, memory != null);
      return cachedForm(key, block);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reads a block packed and caches it packed if it holds data (unpacked otherwise); returns it
   * unpacked.
   */
  private HFileBlock loadPackedAndCache(
      BlockCacheKey key, long offset, int onDiskSizeWithHeader, BlockType expectedType)
      throws IOException {
    PackedBlock packed = packing.readPacked(offset, onDiskSizeWithHeader, expectedType);
    try {
      if (packed.type().isData()) {
        offer(key, packed);
        return packing.unpack(packed);
      }
      HFileBlock block = packing.unpack(packed);
      offer(key, block);
      return block;
    } finally {
      packed.release();
    }
  }

  /**
   * Offers {@code block} to the cache, which takes its own reference or copy if it keeps it, and
   * its own key: {@code key} may be the reader's probe. The caller's reference stays the caller's
   * either way. A cache that throws is logged, not passed on: the read itself succeeded.
   */
  private void offer(BlockCacheKey key, Cacheable block) {
    offer(key, block, false);
  }

  /** As above; {@code inItsMemory} when the block was read into the cache's own memory. */
  private void offer(BlockCacheKey key, Cacheable block, boolean inItsMemory) {
    try {
      if (inItsMemory) {
        cache.cacheBlockInItsMemory(key, block, inMemory);
      } else {
        cache.cacheBlock(key, block, inMemory);
      }
    } catch (RuntimeException e) {
      if (cacheFailures.getAndIncrement() == 0) {
        LOG.warn(
            "{}: caching the block at offset {} failed; it is served uncached (later"
                + " failures for this file are logged at debug level)",
            fileName,
            key.offset(),
            e);
      } else {
        LOG.debug("{}: caching the block at offset {} failed", fileName, key.offset(), e);
      }
    }
  }

  /** {@code packed} decompressed, its reference released. */
  private HFileBlock unpacked(PackedBlock packed, long offset) throws CorruptHFileException {
    try {
      if (packing == null) {
        throw new CorruptHFileException(
            fileName,
            offset,
            "cached block",
            "an unpacked block (the file is not compressed)",
            "a packed block");
      }
      return packing.unpack(packed);
    } catch (CorruptHFileException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptHFileException(fileName, offset, "cached packed block", e);
    } finally {
      packed.release();
    }
  }

  /**
   * The cache's own form of a block just offered to it (an on-heap cache's copy), releasing the
   * block read; or the block read, when the cache keeps it as it is or did not take it.
   */
  private HFileBlock cachedForm(BlockCacheKey key, HFileBlock read) {
    Cacheable cached = cache.peekBlockRetained(key);
    if (cached == null) {
      return read;
    }
    if (cached == read || !(cached instanceof HFileBlock copy)) {
      cached.release();
      return read;
    }
    read.release();
    return copy;
  }

  private HFileBlock lookup(
      BlockCacheKey key, boolean caching, boolean repeat, long offset, BlockType expectedType)
      throws CorruptHFileException {
    Cacheable cached = cache.getBlockRetained(key, caching, repeat, true);
    if (cached == null) {
      return null;
    }
    if (cached instanceof PackedBlock packed) {
      cached = unpacked(packed, offset);
    }
    if (!(cached instanceof HFileBlock block)) {
      cached.release();
      throw new IllegalStateException(
          "the cache holds a "
              + cached.getClass().getSimpleName()
              + " under "
              + key
              + ", not an HFile block");
    }
    if (expectedType != null
        && block.type() != expectedType
        && !(expectedType.isData() && block.type().isData())) {
      block.release();
      throw new CorruptHFileException(
          fileName, offset, "cached block type", expectedType, block.type());
    }
    return block;
  }
}
