package dev.cellar.cache;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufSource;
import dev.cellar.memory.RecycledHeapArrays;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The first-level block cache, on the heap, with HBase's LruBlockCache behaviour: three priority
 * groups (SINGLE for blocks read once, MULTI once read again, MEMORY for in-memory column
 * families), eviction from the acceptable size down to the min size shared fairly between the
 * groups, a hard limit that refuses inserts, and a maximum block size.
 *
 * <p><b>Memory.</b> The cache stores heap memory only: a block whose buffer is off heap, made of
 * several pieces or a slice of a larger heap array is copied into a heap buffer the cache owns, so
 * L1 never pins pooled memory nor bytes it does not count; a buffer that is a whole heap array is
 * retained instead. Copies go into {@link RecycledHeapArrays} with a budget of the hard limit: the
 * array of an evicted block returns to it when its last reader lets go, and the next miss copies
 * into it, so a working set larger than the cache churns without garbage. A reader that is about to
 * offer a block may read it straight into those arrays ({@link #blockMemory}) and offer it with
 * {@link #cacheBlockInItsMemory}: the cache then keeps that buffer, counting its whole array. Each
 * block is accounted as its {@link Cacheable#heapSize()}, plus the slack of its recycled array
 * beyond the block, plus {@link #ENTRY_OVERHEAD} for the map node, entry and key.
 *
 * <p><b>Admission.</b> Once the cache churns, a missed data block is taken in only at its second
 * miss ({@link MissDoorkeeper}, unless built without one); a block left out is read into the
 * recycled arrays too, so its reader sees heap memory as on a hit, and its array comes back when
 * the reader releases it.
 *
 * <p><b>Concurrency.</b> Blocks live in a {@link BlockMap}. A read is a lock-free {@code get} plus
 * a {@code tryRetain} on the block's memory (the entry keeps it), and every removal goes through
 * {@code remove(entry)} before it releases the cache's reference. A reader that finds an entry
 * being removed either retains the block before the cache's release (and keeps it readable until it
 * releases its own reference) or fails to retain a block already released and reports a miss; it
 * never gets freed memory (HBASE-22422). A data block read into a reusable slot shares its buffer
 * object, count and block object with the slot's next reads, so the entry keeps the count's
 * generation and a hit retains the block only in it: a reader that found the entry of a block whose
 * slot was taken again meanwhile fails its retain as if the block were released. The size is an
 * {@link AtomicLong} adjusted after each put and removal, so it can briefly lag the map; limits are
 * soft by that margin. Recency is a {@link RecencyClock} tick at each insert and hit, which writes
 * no word shared with other readers. Caching an existing key keeps the cached block. An insert
 * racing {@link #shutdown()} checks the flag again after its put and removes its own entry, so
 * nothing outlives the shutdown.
 *
 * <p><b>Eviction.</b> When an insert takes the size above the acceptable size, an eviction run is
 * handed to the eviction executor (at most one pending): by default a daemon thread named {@code
 * cellar-lru-eviction}; tests inject an executor to run it on their own thread. One run at a time
 * (a tryLock) scans the map once into the three groups, each keeping its least recently read
 * blocks, and frees size − min size: groups are visited from the smallest overflow above their
 * share (capacity × group factor × min factor) to the largest, each freeing, oldest first, the
 * lesser of its overflow and the bytes still to free divided by the groups left, so the group
 * furthest above its share frees the most. Inserts at or above the hard limit (hard factor ×
 * acceptable size) are refused and counted as failed insertions, as are blocks above the maximum
 * block size. In force-in-memory mode (or with a memory share above 0.999) in-memory blocks are
 * evicted only once the single and multi groups are empty, and those two are steered toward a 1:2
 * ratio.
 *
 * <p><b>Victim cache.</b> A cache built with a victim (HBase's victim handler; the L2 of an
 * inclusive tiered cache) offers it every block its eviction process removes, before dropping its
 * own reference: the victim retains or copies the block, with in-memory priority for blocks of the
 * MEMORY group. Explicit removals ({@link #evictBlock}, {@link #evictBlocksByHfileName}, {@link
 * #shutdown()}) are not offered; whoever owns both caches evicts from both. A miss (not a repeat)
 * is looked up in the victim: a victim hit counts as a miss here and a hit there, is returned with
 * the victim's reference for the caller, and is cached here again when the request is caching. A
 * block removed for space reaches the victim just after it leaves this map, so a lookup in that
 * window misses both (a miss, never wrong data), and a block of a file being evicted from both
 * caches may reach the victim after the victim's pass over that file: dead weight until the victim
 * evicts it, as file names are never reused. {@link #shutdown()} waits for a running eviction, so a
 * victim shut down after this cache receives no more offers.
 */
public final class LruBlockCache implements BlockCache {

  /** Heap estimate per cached block beyond the block itself: map node, entry and key objects. */
  public static final long ENTRY_OVERHEAD = 112;

  static final String EVICTION_THREAD_NAME = "cellar-lru-eviction";

  private static final BlockPriority[] PRIORITIES = BlockPriority.values();

  private final LruBlockCacheConfig config;
  private final BlockMap<LruEntry> map = new BlockMap<>();
  private final AtomicLong size = new AtomicLong();
  private final RecencyClock clock = new RecencyClock();
  private final CacheStats stats = new CacheStats();
  private final Executor evictionExecutor;
  private final ExecutorService ownedExecutor;
  private final AtomicBoolean evictionPending = new AtomicBoolean();
  private final ReentrantLock evictionLock = new ReentrantLock();
  private final BlockCache victimCache;
  private final RecycledHeapArrays copyArrays;
  private final MissDoorkeeper doorkeeper;
  private volatile boolean shutdown;

  /** A cache whose eviction runs on the given executor (a direct one runs it on the inserter). */
  public LruBlockCache(LruBlockCacheConfig config, Executor evictionExecutor) {
    this(config, evictionExecutor, null, null);
  }

  /**
   * A cache whose eviction runs on the given executor and offers what it evicts to {@code
   * victimCache}, which also serves this cache's misses. Shut the victim down after this cache.
   */
  public LruBlockCache(
      LruBlockCacheConfig config, Executor evictionExecutor, BlockCache victimCache) {
    this(config, evictionExecutor, null, Objects.requireNonNull(victimCache, "victimCache"));
  }

  private LruBlockCache(
      LruBlockCacheConfig config,
      Executor evictionExecutor,
      ExecutorService ownedExecutor,
      BlockCache victimCache) {
    this.config = config;
    this.evictionExecutor = evictionExecutor;
    this.ownedExecutor = ownedExecutor;
    this.victimCache = victimCache;
    this.copyArrays = new RecycledHeapArrays(config.hardLimitSize());
    this.doorkeeper = config.doorkeeper() ? MissDoorkeeper.forCache(config.maxSize()) : null;
  }

  /**
   * Every block while the cache has room; once it churns (see {@link MissDoorkeeper#churning}), a
   * data block only at its second miss when the cache was built with a doorkeeper.
   */
  @Override
  public boolean admitsOnMiss(BlockCacheKey key) {
    return doorkeeper == null
        || doorkeeper.admits(
            key,
            MissDoorkeeper.churning(
                size.get(), config.maxSize(), config.acceptableFactor(), config.minFactor()),
            stats);
  }

  /**
   * This cache's recycled arrays, taken as reusable buffers: a block read once is read on the heap,
   * as cached ones are, and the block object of the slot's last such read serves it (no cache holds
   * such a block, so none looks it up after its release).
   */
  @Override
  public BufSource uncachedBlockMemory(BlockCategory category) {
    return copyArrays.reusableSource();
  }

  /** A cache with its own eviction thread, {@value #EVICTION_THREAD_NAME}. */
  public static LruBlockCache create(LruBlockCacheConfig config) {
    ExecutorService executor = evictionThread();
    return new LruBlockCache(config, executor, executor, null);
  }

  /**
   * A cache with its own eviction thread, {@value #EVICTION_THREAD_NAME}, and {@code victimCache}
   * as its victim (see {@link #LruBlockCache(LruBlockCacheConfig, Executor, BlockCache)}).
   */
  public static LruBlockCache create(LruBlockCacheConfig config, BlockCache victimCache) {
    ExecutorService executor = evictionThread();
    return new LruBlockCache(
        config, executor, executor, Objects.requireNonNull(victimCache, "victimCache"));
  }

  private static ExecutorService evictionThread() {
    return Executors.newSingleThreadExecutor(
        Thread.ofPlatform().name(EVICTION_THREAD_NAME).daemon().factory());
  }

  public LruBlockCacheConfig config() {
    return config;
  }

  /** The cache this one offers its evicted blocks to and reads its misses from, or null. */
  public BlockCache victimCache() {
    return victimCache;
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
    if (shutdown) {
      throw new IllegalStateException("the block cache is shut down");
    }
    insert(key, block, inMemory, false);
  }

  /**
   * As {@link #cacheBlock}, for a block read into this cache's {@link #blockMemory}: its buffer is
   * retained as it is, the array's bytes past the block (checksums, the next block's header, the
   * size class's rounding) counted with it.
   */
  @Override
  public void cacheBlockInItsMemory(BlockCacheKey key, Cacheable block, boolean inMemory) {
    if (shutdown) {
      throw new IllegalStateException("the block cache is shut down");
    }
    Buf backing = block.backing();
    insert(
        key,
        block,
        inMemory,
        backing.isSingleSegment()
            && backing.segment().heapBase().isPresent()
            && (victimCache == null || backing.slotAttachment() == null));
  }

  /**
   * Caches {@code block} unless refused; an insert racing shutdown removes its own entry.
   *
   * @param asItIs whether to keep the block's own heap buffer whatever it is a part of
   */
  private void insert(BlockCacheKey probeOrKey, Cacheable block, boolean inMemory, boolean asItIs) {
    if (block.heapSize() > config.maxBlockSize()) {
      stats.failedInsertion();
      return;
    }
    if (map.containsKey(probeOrKey)) {
      return;
    }
    if (size.get() >= config.hardLimitSize()) {
      stats.failedInsertion();
      requestEviction();
      return;
    }
    Cacheable owned = asItIs ? block.retain() : onHeap(block);
    long slack = RecycledHeapArrays.arrayLength(owned.backing()) - owned.length();
    BlockPriority priority = inMemory ? BlockPriority.MEMORY : BlockPriority.SINGLE;
    LruEntry entry =
        new LruEntry(
            probeOrKey, owned, owned.heapSize() + slack + ENTRY_OVERHEAD, priority, clock.tick());
    if (map.putIfAbsent(entry) != null) {
      owned.release();
      return;
    }
    long newSize = size.addAndGet(entry.size);
    if (shutdown) {
      remove(entry);
      return;
    }
    if (newSize > config.acceptableSize()) {
      requestEviction();
    }
  }

  /**
   * The block itself (retained) when its buffer is a whole heap array, else a heap copy owning its
   * buffer: pooled memory, several pieces, and a slice of a larger array are copied, so the cache
   * holds exactly the bytes it counts. A block read into a reusable slot is kept as it is too (a
   * hit retains it only in the generation it was cached in), unless the cache has a victim, which
   * would turn it away when evicted (see {@link #blockMemory}).
   */
  private Cacheable onHeap(Cacheable block) {
    Buf backing = block.backing();
    if (backing.isSingleSegment()
        && isWholeArray(backing.segment())
        && (victimCache == null || backing.slotAttachment() == null)) {
      return block.retain();
    }
    return block.withBuf(copyArrays.copyRetained(block.buf()));
  }

  private static boolean isWholeArray(MemorySegment segment) {
    return segment.heapBase().orElse(null) instanceof byte[] array
        && segment.address() == 0
        && segment.byteSize() == array.length;
  }

  /**
   * This cache's recycled arrays, for every category: a block read there is kept uncopied. Data
   * blocks take reusable ones (see {@link #uncachedBlockMemory}), whose block object serves the
   * slot's next read once the cache let the block go; not in a cache with a victim, which keeps no
   * such block (its lookups could not tell the slot's next block from the one it was given).
   */
  @Override
  public BufSource blockMemory(BlockCategory category) {
    return category == BlockCategory.DATA && victimCache == null
        ? copyArrays.reusableSource()
        : copyArrays;
  }

  @Override
  public Cacheable getBlockRetained(
      BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    LruEntry entry = map.get(key);
    if (entry == null || !entry.tryRetainBlock()) {
      if (!repeat && updateCacheMetrics) {
        stats.miss(caching, key.expectedCategory());
      }
      return victimCache == null || repeat ? null : fromVictim(key, caching, updateCacheMetrics);
    }
    entry.access(clock.tick());
    if (updateCacheMetrics) {
      stats.hit(caching, entry.category);
    }
    return entry.block;
  }

  /**
   * Looks a miss up in the victim, which counts its own hit or miss; a hit carries the victim's
   * reference for the caller and is cached here again if the request is caching.
   */
  private Cacheable fromVictim(BlockCacheKey key, boolean caching, boolean updateCacheMetrics) {
    Cacheable block = victimCache.getBlockRetained(key, caching, false, updateCacheMetrics);
    if (block != null && caching) {
      insert(key, block, false, false);
    }
    return block;
  }

  @Override
  public boolean containsBlock(BlockCacheKey key) {
    return map.containsKey(key);
  }

  /** The cached heap copy, retained, with no statistics, recency or priority touched. */
  @Override
  public Cacheable peekBlockRetained(BlockCacheKey key) {
    LruEntry entry = map.get(key);
    return entry != null && entry.tryRetainBlock() ? entry.block : null;
  }

  /** The priority group of the block under {@code key}, or null if it is not cached. */
  BlockPriority priority(BlockCacheKey key) {
    LruEntry entry = map.get(key);
    return entry == null ? null : entry.priority();
  }

  @Override
  public boolean evictBlock(BlockCacheKey key) {
    LruEntry entry = map.get(key);
    return entry != null && remove(entry);
  }

  @Override
  public int evictBlocksByHfileName(String fileName) {
    long fileId = FileIds.existingIdOf(fileName);
    if (fileId == 0) {
      return 0;
    }
    int evicted = 0;
    for (LruEntry entry : map.values()) {
      if (entry.keyFileId() == fileId && remove(entry)) {
        evicted++;
      }
    }
    return evicted;
  }

  /** Removes {@code entry} if it is still mapped, dropping the cache's reference. */
  private boolean remove(LruEntry entry) {
    if (!unmap(entry)) {
      return false;
    }
    entry.block.release();
    return true;
  }

  /** Removes {@code entry} from the map and the size if it is still mapped, keeping its block. */
  private boolean unmap(LruEntry entry) {
    if (!map.remove(entry)) {
      return false;
    }
    size.addAndGet(-entry.size);
    return true;
  }

  /** Removes {@code entry} for space, offering its block to the victim before releasing it. */
  private long evictForSpace(LruEntry entry) {
    if (!unmap(entry)) {
      return 0;
    }
    stats.evicted();
    try {
      if (victimCache != null) {
        victimCache.cacheBlock(entry.key(), entry.block, entry.priority() == BlockPriority.MEMORY);
      }
    } finally {
      entry.block.release();
    }
    return entry.size;
  }

  private void requestEviction() {
    if (shutdown || evictionPending.get() || !evictionPending.compareAndSet(false, true)) {
      return;
    }
    try {
      evictionExecutor.execute(this::runEviction);
    } catch (RejectedExecutionException e) {
      evictionPending.set(false);
    }
  }

  private void runEviction() {
    evictionPending.set(false);
    if (!evictionLock.tryLock()) {
      return;
    }
    try {
      if (!shutdown) {
        evict();
      }
    } finally {
      evictionLock.unlock();
    }
  }

  private void evict() {
    long bytesToFree = size.get() - config.minSize();
    if (bytesToFree <= 0) {
      return;
    }
    stats.evictionRun();
    @SuppressWarnings({"unchecked", "rawtypes"})
    EvictionBucket<LruEntry>[] buckets = new EvictionBucket[PRIORITIES.length];
    for (BlockPriority priority : PRIORITIES) {
      buckets[priority.ordinal()] = new EvictionBucket<>(config.targetSize(priority), bytesToFree);
    }
    map.forEach(entry -> buckets[entry.priority().ordinal()].add(entry));
    if (config.sparesInMemory()) {
      freeSparingInMemory(buckets, bytesToFree);
    } else {
      freeByOverflow(buckets, bytesToFree);
    }
  }

  /**
   * Visits the groups from the smallest overflow to the largest; each frees the lesser of its
   * overflow and an equal split of what is still to free among the groups left.
   */
  private void freeByOverflow(EvictionBucket<LruEntry>[] buckets, long bytesToFree) {
    EvictionBucket<LruEntry>[] byOverflow = buckets.clone();
    Arrays.sort(byOverflow, Comparator.comparingLong(EvictionBucket::overflow));
    long freed = 0;
    int remaining = byOverflow.length;
    for (EvictionBucket<LruEntry> bucket : byOverflow) {
      long overflow = bucket.overflow();
      if (overflow > 0) {
        long share = Math.min(overflow, (bytesToFree - freed) / remaining);
        freed += bucket.free(share, this::evictForSpace);
      }
      remaining--;
    }
  }

  /**
   * Frees from the single and multi groups first, steering what remains of them toward one third
   * single and two thirds multi, and from the in-memory group only when the other two cannot cover
   * the bytes to free.
   */
  private void freeSparingInMemory(EvictionBucket<LruEntry>[] buckets, long bytesToFree) {
    EvictionBucket<LruEntry> single = buckets[BlockPriority.SINGLE.ordinal()];
    EvictionBucket<LruEntry> multi = buckets[BlockPriority.MULTI.ordinal()];
    EvictionBucket<LruEntry> memory = buckets[BlockPriority.MEMORY.ordinal()];
    long singleSize = single.totalSize();
    long multiSize = multi.totalSize();
    if (bytesToFree > singleSize + multiSize) {
      long freed = single.free(singleSize, this::evictForSpace);
      freed += multi.free(multiSize, this::evictForSpace);
      memory.free(bytesToFree - freed, this::evictForSpace);
      return;
    }
    long remain = singleSize + multiSize - bytesToFree;
    if (3 * singleSize <= remain) {
      multi.free(bytesToFree, this::evictForSpace);
    } else if (3 * multiSize <= 2 * remain) {
      single.free(bytesToFree, this::evictForSpace);
    } else {
      long freed = single.free(singleSize - remain / 3, this::evictForSpace);
      if (freed < bytesToFree) {
        multi.free(bytesToFree - freed, this::evictForSpace);
      }
    }
  }

  @Override
  public long size() {
    return size.get();
  }

  @Override
  public long freeSize() {
    return Math.max(0, config.maxSize() - size.get());
  }

  @Override
  public long blockCount() {
    return map.size();
  }

  @Override
  public CacheStats stats() {
    return stats;
  }

  @Override
  public void shutdown() {
    shutdown = true;
    if (ownedExecutor != null) {
      ownedExecutor.shutdown();
    }
    evictionLock.lock();
    try {
      for (LruEntry entry : map.values()) {
        remove(entry);
      }
    } finally {
      evictionLock.unlock();
    }
  }
}
