package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.BlockMap;
import dev.cellar.cache.BlockPriority;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.CacheableDeserializer;
import dev.cellar.cache.EvictionBucket;
import dev.cellar.cache.FileIds;
import dev.cellar.cache.MissDoorkeeper;
import dev.cellar.cache.RecencyClock;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second-level block cache: blocks stored as bytes in an {@link IOEngine} (off-heap memory,
 * heap arrays, files or a memory-mapped file), in slots handed out by a {@link BucketAllocator},
 * with HBase's BucketCache behaviour and keys.
 *
 * <p><b>Insert path.</b> {@link #cacheBlock} retains the block in the {@link RamCache} (where reads
 * find it at once) and offers it, without blocking, to one of the writer threads' bounded queues,
 * chosen by the key's hash; a full queue drops the block and counts a failed insertion, so inserts
 * never stall readers. A writer ({@value #WRITER_THREAD_PREFIX}N) drains its queue in batches. For
 * each block it holds a reference of its own while it copies (an eviction may drop the RAM cache's
 * meanwhile), allocates a slot for content plus metadata, copies the bytes into the engine, then
 * publishes a {@link BucketEntry} in the index (the backing {@link BlockMap}) in the same atomic
 * step that takes the block out of the RAM cache ({@link RamCache#publish}). An eviction removes
 * the RAM entry before it looks at the index, so it either prevents the publication (the written
 * slot is freed) or finds the published entry: an evicted block never reappears. A full cache makes
 * the writer run {@link #freeSpace} and retry once.
 *
 * <p><b>Blocks read into their slot.</b> On a shared-memory engine a reader that misses may borrow
 * a slot ({@link #blockMemory}, a {@link LentSlot}) and read the block from its file straight into
 * it; {@link #cacheBlockInItsMemory} then writes the metadata after the content and indexes the
 * entry at once, from the reader's thread: one copy per miss instead of two, and no writer thread
 * in between. The reader allocates only while a slot is free; otherwise it gets a pooled buffer
 * (and the block takes the queued path) and a writer is asked to free space, as it is whenever a
 * publication leaves the cache over its acceptable size, so readers never evict.
 *
 * <p><b>Read path and memory.</b> A lookup takes the entry from the backing map and retains its
 * reference count with a {@code tryRetain}; no lock is taken. On a shared-memory engine the block
 * handed out is a zero-copy view of the engine's memory counting in the entry's own {@code RefCnt},
 * built once per entry and then reused, so a hit allocates nothing. On a copying engine the bytes
 * are read into a pooled buffer the reader owns, and the entry's reference taken for the read is
 * dropped right after it.
 *
 * <p><b>Eviction safety.</b> Eviction removes the entry from the index with {@code remove(key,
 * entry)} and then drops the index's reference once ({@link BucketEntry#markEvicted}); the slot
 * returns to the allocator when the count reaches zero, after the last reader released its block. A
 * lookup racing the removal either retained the count before it reached zero (and reads bytes that
 * stay put until it releases) or fails to retain and misses. This reference count does the job of
 * HBase's per-offset read/write locks without any lock on the hit path.
 *
 * <p><b>Freeing space.</b> When used bytes pass the accept factor, or an allocation fails, {@link
 * #freeSpace} (one run at a time) computes how many bytes each size class is short of its (1 − min
 * factor) share of free slots, adds the extra-free factor, and evicts the least recently read
 * entries of the single, multi and memory groups, the group furthest above its share first; entries
 * a reader holds are skipped. It then empties whole, least filled buckets (twice as many as size
 * classes without a free slot) so buckets can move between size classes.
 *
 * <p><b>Persistence.</b> With a persistent engine and {@link BucketCacheConfig#persistentPath()},
 * every entry carries a {@link SlotChecksum}; the index is written periodically when it changed
 * (and at shutdown) by {@link BucketIndexFile}, and read back at start. A restored entry's bytes
 * are checked against its checksum on its first read, so a slot overwritten after the last persist
 * (a crash), a torn write or a corrupted file is evicted, never served.
 */
public final class BucketCache implements BlockCache {

  /** The most lent slots whose objects are kept for their next lending. */
  private static final int MAX_LENT_SLOTS = 1 << 20;

  private static final Comparator<BucketEntry> BY_FILE_AND_OFFSET =
      Comparator.comparingLong(BucketEntry::keyFileId).thenComparingLong(BucketEntry::keyOffset);
  private static final Logger LOG = LoggerFactory.getLogger(BucketCache.class);

  static final String WRITER_THREAD_PREFIX = "cellar-bucket-writer-";

  /** Queued to wake a writer that should free space; never written. */
  private static final RamEntry FREE_SPACE_REQUEST = new RamEntry(null, null, 0, false);

  static final String PERSISTER_THREAD_NAME = "cellar-bucket-persister";

  /** Longest metadata a deserializer may declare; writers keep a scratch buffer this large. */
  static final int MAX_METADATA_LENGTH = 256;

  private final BucketCacheConfig config;
  private final IOEngine engine;
  private final BucketAllocator allocator;
  private final BufAllocator bufAllocator;
  private final boolean keepsChecksums;
  private final BlockMap<BucketEntry> backingMap = new BlockMap<>();
  private final RamCache ramCache = new RamCache();
  private final List<ArrayBlockingQueue<RamEntry>> queues = new ArrayList<>();
  private final List<Thread> writers = new ArrayList<>();
  private final CacheStats stats = new CacheStats();
  private final BucketCacheCounters counters = new BucketCacheCounters();
  private final IoErrorTracker ioErrors;
  private final RecencyClock clock = new RecencyClock();
  private final AtomicLong realCacheSize = new AtomicLong();
  private final AtomicLong liveEntries = new AtomicLong();
  private final AtomicBoolean indexChanged = new AtomicBoolean();
  private final AtomicBoolean engineClosed = new AtomicBoolean();
  private final AtomicBoolean freeSpaceRequested = new AtomicBoolean();
  private final BufSource slotLender =
      new BufSource() {
        /** The first {@code capacity} bytes of a lent slot (a view sharing its count). */
        @Override
        public Buf takeRetained(int capacity) {
          Buf lent = lendSlotRetained(capacity);
          return lent.capacity() == capacity ? lent : lent.slice(0, capacity);
        }

        /** A whole lent slot, its view and block object those of the slot's last lending. */
        @Override
        public Buf takeAtLeastRetained(int capacity) {
          return lendSlotRetained(capacity);
        }
      };

  /**
   * The object of each slot lent so far, by offset over the smallest slot size (a table of at most
   * {@value #MAX_LENT_SLOTS}, shared by offsets that collide), lent again when the allocator hands
   * out the same slot. An entry is read and written only by the thread the allocator just gave its
   * offset to, whose lock orders it after the slot's last lending.
   */
  private final LentSlot[] lentSlots;

  private final int smallestSlot;
  private final LentSlot.Returner slotReturner = this::slotReturned;
  private final ReentrantLock freeSpaceLock = new ReentrantLock();
  private final MissDoorkeeper doorkeeper;
  private final BucketCachePersister persister;
  private volatile boolean enabled = true;
  private volatile boolean shutdown;

  private BucketCache(
      BucketCacheConfig config,
      IOEngine engine,
      BucketAllocator allocator,
      BufAllocator bufAllocator) {
    this.config = config;
    this.engine = engine;
    this.allocator = allocator;
    this.smallestSlot = allocator.roundUp(1);
    this.lentSlots =
        new LentSlot
            [(int) Math.min(MAX_LENT_SLOTS, Math.max(1, allocator.totalSize() / smallestSlot))];
    this.doorkeeper = config.doorkeeper() ? MissDoorkeeper.forCache(config.capacity()) : null;
    this.bufAllocator = bufAllocator;
    this.keepsChecksums = engine.isPersistent() && config.persistentPath() != null;
    this.ioErrors = new IoErrorTracker(config.ioErrorsToleratedMillis());
    this.persister = keepsChecksums ? new BucketCachePersister(this, config) : null;
  }

  /**
   * Opens a bucket cache: creates its engine and, when persistence is configured and the engine
   * keeps its bytes, restores the index persisted by a previous run (an unusable index is logged
   * and the cache starts empty). Then starts the writer threads (and the persister).
   *
   * @param bufAllocator where copying engines read blocks into
   * @throws IOException if the engine cannot be created
   */
  public static BucketCache create(BucketCacheConfig config, BufAllocator bufAllocator)
      throws IOException {
    int[] sizes = config.bucketSizes();
    long bucketCapacity = 4L * sizes[sizes.length - 1];
    long buckets = config.capacity() / bucketCapacity;
    if (buckets < sizes.length) {
      throw new IllegalArgumentException(
          "a bucket cache of "
              + config.capacity()
              + " bytes holds "
              + buckets
              + " buckets of "
              + bucketCapacity
              + " bytes; it needs at least one per size class ("
              + sizes.length
              + "), so at least "
              + sizes.length * bucketCapacity
              + " bytes");
    }
    long totalSize = buckets * bucketCapacity;
    boolean persistent = config.persistentPath() != null;
    return open(
        config,
        IOEngines.create(config.ioEngine(), totalSize, bucketCapacity, persistent),
        bufAllocator);
  }

  /**
   * Opens a bucket cache over an engine already sized to whole buckets (tests use this to put a
   * failing or slow engine under the cache). The cache owns the engine from here on.
   */
  static BucketCache open(BucketCacheConfig config, IOEngine engine, BufAllocator bufAllocator)
      throws IOException {
    BucketCache cache;
    try {
      BucketIndexFile.Restored restored =
          config.persistentPath() != null && engine.isPersistent()
              ? BucketIndexFile.restore(config, engine.description(), engine.capacity())
              : null;
      BucketAllocator allocator =
          restored != null
              ? restored.allocator()
              : new BucketAllocator(engine.capacity(), config.bucketSizes());
      cache = new BucketCache(config, engine, allocator, bufAllocator);
      if (restored != null) {
        cache.adoptRestored(restored.entries());
      }
    } catch (RuntimeException e) {
      engine.close();
      throw e;
    }
    cache.start();
    return cache;
  }

  private void adoptRestored(List<BucketIndexFile.StoredEntry> entries) {
    for (BucketIndexFile.StoredEntry stored : entries) {
      BucketEntry entry =
          new BucketEntry(
              stored.key(),
              stored.offset(),
              stored.contentLength(),
              stored.deserializer(),
              stored.category(),
              stored.priority(),
              stored.accessCounter(),
              stored.checksum(),
              false,
              this::slotReleased);
      liveEntries.incrementAndGet();
      backingMap.putIfAbsent(entry);
      realCacheSize.addAndGet(entry.storedLength());
      clock.follow(stored.accessCounter());
    }
    LOG.info(
        "bucket cache {} restored {} blocks from {}",
        engine.description(),
        entries.size(),
        config.persistentPath());
  }

  private void start() {
    for (int i = 0; i < config.writerThreads(); i++) {
      ArrayBlockingQueue<RamEntry> queue = new ArrayBlockingQueue<>(config.writerQueueLength());
      queues.add(queue);
      writers.add(
          Thread.ofPlatform()
              .name(WRITER_THREAD_PREFIX + i)
              .daemon()
              .start(() -> writerLoop(queue)));
    }
    if (persister != null) {
      persister.start();
    }
  }

  public BucketCacheConfig config() {
    return config;
  }

  /** The engine's description, as configured ({@code offheap}, {@code file:/path}, ...). */
  public String ioEngine() {
    return engine.description();
  }

  // ---------------------------------------------------------------- insert path

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
    cacheBlock(key, block, inMemory, false);
  }

  /**
   * Offers {@code block} for caching.
   *
   * @param waitWhenFull for cache-only inserts (prefetch, cache on write): wait up to {@link
   *     BucketCacheConfig#queueAdditionWaitMillis()} for room in a full writer queue
   */
  public void cacheBlock(
      BlockCacheKey probeOrKey, Cacheable block, boolean inMemory, boolean waitWhenFull) {
    BlockCacheKey key = probeOrKey.detached();
    if (shutdown) {
      throw new IllegalStateException("the bucket cache is shut down");
    }
    if (!enabled || backingMap.containsKey(key) || ramCache.containsKey(key)) {
      return;
    }
    if (block.backing().slotAttachment() != null) {
      // A block read into a reusable slot: its object and count serve the slot's next read, which
      // a lookup in the RAM cache after its release could mistake for it.
      stats.failedInsertion();
      return;
    }
    CacheableDeserializer deserializer = block.deserializer();
    if (deserializer.metadataLength() > MAX_METADATA_LENGTH) {
      throw new IllegalArgumentException(
          deserializer.name()
              + " declares "
              + deserializer.metadataLength()
              + " metadata bytes, at most "
              + MAX_METADATA_LENGTH);
    }
    if (keepsChecksums && !Deserializers.isRegistered(deserializer)) {
      throw new IllegalArgumentException(
          "blocks of "
              + deserializer.name()
              + " cannot be persisted: register "
              + deserializer.getClass().getName()
              + " as a "
              + CacheableDeserializer.class.getName()
              + " service");
    }
    long stored = (long) block.buf().capacity() + deserializer.metadataLength();
    if (stored > Integer.MAX_VALUE || allocator.roundUp((int) stored) < 0) {
      stats.failedInsertion();
      return;
    }
    RamEntry entry = new RamEntry(key, block, clock.tick(), inMemory);
    if (!ramCache.putIfAbsent(entry)) {
      return;
    }
    ArrayBlockingQueue<RamEntry> queue = queues.get((key.hashCode() & 0x7fffffff) % queues.size());
    if (!offer(queue, entry, waitWhenFull)) {
      ramCache.remove(entry);
      stats.failedInsertion();
    }
  }

  /**
   * Every block while the cache has room; once its slots churn (see {@link
   * MissDoorkeeper#churning}), a data block only at its second miss when the cache was built with a
   * doorkeeper. A block not taken is read into pooled memory, as off heap as the slots.
   */
  @Override
  public boolean admitsOnMiss(BlockCacheKey key) {
    return doorkeeper == null
        || doorkeeper.admits(
            key,
            MissDoorkeeper.churning(
                allocator.usedSize(),
                allocator.totalSize(),
                config.acceptFactor(),
                config.minFactor()),
            stats);
  }

  // ---------------------------------------------------------------- blocks read into their slot

  /** A slot to read a missed block into, on an engine whose memory readers share; else null. */
  @Override
  public BufSource blockMemory(BlockCategory category) {
    return engine.sharesMemory() && enabled && !shutdown ? slotLender : null;
  }

  /**
   * A slot for {@code capacity} bytes lent to the caller, whole (the slot's size), or a pooled
   * buffer of {@code capacity} bytes when no slot is free (a writer is then asked to free space) or
   * the cache is closing. The slot's object from its last lending serves it again when it was freed
   * since (its view, count and block object: see {@link LentSlot}).
   */
  private Buf lendSlotRetained(int capacity) {
    long offset =
        enabled && !shutdown && allocator.roundUp(capacity) > 0 ? allocator.allocate(capacity) : -1;
    if (offset < 0) {
      requestFreeSpace();
      return bufAllocator.allocateContiguous(capacity);
    }
    liveEntries.incrementAndGet();
    int slotLength = allocator.roundUp(capacity);
    if (shutdown) {
      slotReturned(offset, slotLength);
      return bufAllocator.allocateContiguous(capacity);
    }
    int index = (int) ((offset / smallestSlot) % lentSlots.length);
    LentSlot slot = lentSlots[index];
    if (slot != null
        && slot.offset == offset
        && slot.length == slotLength
        && slot.bytes().refCnt() == 0) {
      slot.relend();
    } else {
      slot = new LentSlot(engine, offset, slotLength, slotReturner);
      lentSlots[index] = slot;
    }
    return slot.bytes();
  }

  /**
   * Indexes a block read into a slot this cache lent, writing its metadata after it; any other
   * block, or one whose stored length would not belong to the slot's size class, is offered as
   * {@link #cacheBlock} offers it.
   */
  @Override
  public void cacheBlockInItsMemory(BlockCacheKey probeOrKey, Cacheable block, boolean inMemory) {
    Buf backing = block.backing();
    int contentLength = block.length();
    CacheableDeserializer deserializer = block.deserializer();
    int storedLength = contentLength + deserializer.metadataLength();
    if (!(backing.owner() instanceof LentSlot slot)
        || !slot.holds(backing)
        || slot.isPublished()
        || storedLength > slot.length
        || allocator.roundUp(storedLength) != allocator.roundUp(slot.length)
        || deserializer.metadataLength() > MAX_METADATA_LENGTH
        || (keepsChecksums && !Deserializers.isRegistered(deserializer))) {
      cacheBlock(probeOrKey, block, inMemory);
      return;
    }
    if (shutdown) {
      throw new IllegalStateException("the bucket cache is shut down");
    }
    if (!enabled || backingMap.containsKey(probeOrKey)) {
      return;
    }
    Buf stored = slot.bytes();
    block.writeMetadata(stored, contentLength);
    int checksum =
        keepsChecksums
            ? SlotChecksum.of(probeOrKey.fileName(), probeOrKey.offset(), stored, storedLength)
            : 0;
    slot.markPublished();
    BlockPriority priority = inMemory ? BlockPriority.MEMORY : BlockPriority.SINGLE;
    BucketEntry entry =
        new BucketEntry(
            probeOrKey,
            slot.offset,
            contentLength,
            deserializer,
            block.category(),
            priority,
            clock.tick(),
            checksum,
            true,
            slot);
    if (!index(entry)) {
      entry.markEvicted();
    } else if (shutdown) {
      removeEntry(entry);
    }
    if (allocator.usedSize() > acceptableSize()) {
      requestFreeSpace();
    }
  }

  /** Wakes a writer to run {@link #freeSpace}, unless one was asked already. */
  private void requestFreeSpace() {
    if (!shutdown
        && freeSpaceRequested.compareAndSet(false, true)
        && !queues.get(0).offer(FREE_SPACE_REQUEST)) {
      // The writer is busy and frees space after its batch anyway.
      freeSpaceRequested.set(false);
    }
  }

  private boolean offer(ArrayBlockingQueue<RamEntry> queue, RamEntry entry, boolean wait) {
    if (!wait || config.queueAdditionWaitMillis() == 0) {
      return queue.offer(entry);
    }
    try {
      return queue.offer(entry, config.queueAdditionWaitMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void writerLoop(ArrayBlockingQueue<RamEntry> queue) {
    List<RamEntry> batch = new ArrayList<>(config.writerQueueLength());
    Buf scratch = Buf.wrap(new byte[MAX_METADATA_LENGTH]);
    while (!shutdown) {
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        continue;
      }
      queue.drainTo(batch);
      writeBatch(batch, scratch);
      batch.clear();
    }
  }

  /**
   * Writes each queued block of {@code batch}, then frees space if the cache is over its acceptable
   * size. A block whose write throws an unexpected runtime exception is dropped from the RAM cache
   * and logged, and the writer goes on with the next: a writer thread never dies of one bad block,
   * which would leave its queue full and its blocks in RAM forever.
   */
  private void writeBatch(List<RamEntry> batch, Buf scratch) {
    boolean freeSpaceAsked = false;
    for (RamEntry queued : batch) {
      if (queued == FREE_SPACE_REQUEST) {
        freeSpaceRequested.set(false);
        freeSpaceAsked = true;
        continue;
      }
      try {
        writeQueued(queued, scratch);
      } catch (RuntimeException e) {
        ramCache.remove(queued);
        stats.failedInsertion();
        LOG.error(
            "bucket cache {}: writing {} failed; the block is dropped",
            engine.description(),
            queued.key(),
            e);
      }
    }
    if (freeSpaceAsked || allocator.usedSize() > acceptableSize()) {
      try {
        freeSpace(false);
      } catch (RuntimeException e) {
        LOG.error("bucket cache {}: freeing space failed", engine.description(), e);
      }
    }
  }

  private void writeQueued(RamEntry queued, Buf scratch) {
    if (!enabled || shutdown || !ramCache.isCurrent(queued)) {
      ramCache.remove(queued);
      return;
    }
    if (!queued.block().tryRetain()) {
      ramCache.remove(queued);
      return;
    }
    BucketEntry entry;
    try {
      entry = write(queued, scratch);
    } finally {
      queued.block().release();
    }
    if (entry == null) {
      ramCache.remove(queued);
      return;
    }
    boolean[] indexed = new boolean[1];
    boolean published;
    try {
      published = ramCache.publish(queued, () -> indexed[0] = index(entry));
    } catch (RuntimeException e) {
      if (!indexed[0]) {
        entry.markEvicted();
      }
      throw e;
    }
    if (!published || !indexed[0]) {
      entry.markEvicted();
    } else if (shutdown) {
      removeEntry(entry);
    }
  }

  /**
   * Adds a written entry to the index (the backing map); false if the key is there already. Runs
   * inside {@link RamCache#publish}, atomically with the queued block's removal.
   */
  private boolean index(BucketEntry entry) {
    if (backingMap.putIfAbsent(entry) != null) {
      return false;
    }
    realCacheSize.addAndGet(entry.storedLength());
    indexChanged.set(true);
    return true;
  }

  /** Copies the queued block into a new slot; null (counted) if there is no room or I/O failed. */
  private BucketEntry write(RamEntry queued, Buf scratch) {
    Cacheable block = queued.block();
    CacheableDeserializer deserializer = block.deserializer();
    int contentLength = block.buf().capacity();
    int metadataLength = deserializer.metadataLength();
    int storedLength = contentLength + metadataLength;
    long offset = allocator.allocate(storedLength);
    if (offset < 0) {
      freeSpace(true);
      offset = allocator.allocate(storedLength);
      if (offset < 0) {
        stats.failedInsertion();
        return null;
      }
    }
    int checksum;
    try {
      engine.write(block.buf(), 0, contentLength, offset);
      block.writeMetadata(scratch, 0);
      engine.write(scratch, 0, metadataLength, offset + contentLength);
      checksum =
          keepsChecksums
              ? SlotChecksum.of(queued.key(), block.buf(), contentLength, scratch, metadataLength)
              : 0;
      ioErrors.success();
    } catch (IOException | RuntimeException e) {
      allocator.free(offset, storedLength);
      stats.failedInsertion();
      engineFailed("writing " + queued.key() + " at " + offset, e);
      return null;
    }
    liveEntries.incrementAndGet();
    BlockPriority priority = queued.inMemory() ? BlockPriority.MEMORY : BlockPriority.SINGLE;
    return new BucketEntry(
        queued.key(),
        offset,
        contentLength,
        deserializer,
        block.category(),
        priority,
        queued.accessCounter(),
        checksum,
        true,
        this::slotReleased);
  }

  /** Called when an entry's last reference is gone: its slot may be reused. */
  private void slotReleased(BucketEntry entry) {
    slotReturned(entry.offset, entry.storedLength());
  }

  /** Frees a slot no entry and no reader holds any more. */
  private void slotReturned(long offset, int length) {
    allocator.free(offset, length);
    if (liveEntries.decrementAndGet() == 0 && shutdown) {
      closeEngine();
    }
  }

  // ---------------------------------------------------------------- read path

  @Override
  public Cacheable getBlockRetained(
      BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    Cacheable block = enabled ? lookup(key) : null;
    if (updateCacheMetrics) {
      if (block != null) {
        stats.hit(caching, block.category());
      } else if (!repeat) {
        stats.miss(caching, key.expectedCategory());
      }
    }
    return block;
  }

  private Cacheable lookup(BlockCacheKey key) {
    Cacheable queued = ramCache.getRetained(key);
    if (queued != null) {
      return queued;
    }
    BucketEntry entry = backingMap.get(key);
    if (entry == null || !entry.refCnt.tryRetain()) {
      return null;
    }
    Cacheable block = engine.sharesMemory() ? sharedBlock(entry) : copiedBlock(entry);
    if (block != null) {
      entry.access(clock.tick());
    }
    return block;
  }

  /** The entry's zero-copy block, carrying the reference the caller just retained; null if bad. */
  private Cacheable sharedBlock(BucketEntry entry) {
    Cacheable built = entry.sharedBlock();
    if (built != null) {
      return built;
    }
    Buf stored = engine.view(entry.offset, entry.storedLength(), entry.refCnt);
    if (!entry.verified() && !verify(entry, stored)) {
      entry.refCnt.release();
      return null;
    }
    try {
      built =
          entry.deserializer.deserialize(
              stored.slice(0, entry.contentLength), stored, entry.contentLength);
    } catch (IOException | RuntimeException e) {
      entry.refCnt.release();
      discardCorrupt(entry, e);
      return null;
    }
    return entry.publishSharedBlock(built);
  }

  /** A copy of the entry's block in a buffer the caller owns; drops the read's entry reference. */
  private Cacheable copiedBlock(BucketEntry entry) {
    int length = entry.storedLength();
    Buf copy = bufAllocator.allocateContiguous(length);
    try {
      long start = System.nanoTime();
      engine.read(entry.offset, copy, 0, length);
      counters.ioHit(System.nanoTime() - start);
      ioErrors.success();
    } catch (IOException | RuntimeException e) {
      copy.release();
      entry.refCnt.release();
      engineFailed("reading " + entry, e);
      return null;
    }
    entry.refCnt.release();
    if (!entry.verified() && !verify(entry, copy)) {
      copy.release();
      return null;
    }
    try {
      return entry.deserializer.deserialize(
          copy.slice(0, entry.contentLength), copy, entry.contentLength);
    } catch (IOException | RuntimeException e) {
      copy.release();
      discardCorrupt(entry, e);
      return null;
    }
  }

  /** Checks a restored entry's bytes against its checksum; a mismatch evicts it. */
  private boolean verify(BucketEntry entry, Buf stored) {
    if (SlotChecksum.of(entry.fileName(), entry.keyOffset(), stored, entry.storedLength())
        == entry.checksum) {
      entry.markVerified();
      return true;
    }
    counters.checksumFailures.increment();
    LOG.warn(
        "bucket cache {}: stored bytes of {} do not match their checksum; evicted",
        engine.description(),
        entry);
    removeEntry(entry);
    return false;
  }

  private void discardCorrupt(BucketEntry entry, Exception e) {
    counters.checksumFailures.increment();
    LOG.warn("bucket cache {}: cannot rebuild {}; evicted", engine.description(), entry, e);
    removeEntry(entry);
  }

  private void engineFailed(String what, Exception e) {
    counters.ioErrors.increment();
    LOG.warn("bucket cache {}: failed {}", engine.description(), what, e);
    if (ioErrors.failure(System.nanoTime())) {
      LOG.error(
          "bucket cache {}: engine errors lasted over {} ms; disabling the cache",
          engine.description(),
          config.ioErrorsToleratedMillis());
      disable();
    }
  }

  @Override
  public boolean containsBlock(BlockCacheKey key) {
    return backingMap.containsKey(key) || ramCache.containsKey(key);
  }

  // ---------------------------------------------------------------- eviction

  @Override
  public boolean evictBlock(BlockCacheKey key) {
    boolean removed = ramCache.remove(key);
    BucketEntry entry = backingMap.get(key);
    return (entry != null && removeEntry(entry)) || removed;
  }

  /**
   * Evicts the file's blocks, found by a pass over the index, as the L1 finds them: a per-file set
   * kept beside the index cost a node for every block the cache took in (a sixth of the heap a Get
   * left with a third of the data cached), for a call made when a file goes away.
   */
  @Override
  public int evictBlocksByHfileName(String fileName) {
    long fileId = FileIds.existingIdOf(fileName);
    if (fileId == 0) {
      return 0;
    }
    Set<BlockCacheKey> evicted = new HashSet<>();
    ramCache.removeFile(fileId, evicted);
    backingMap.forEach(
        entry -> {
          if (entry.keyFileId() == fileId && removeEntry(entry)) {
            evicted.add(entry.key());
          }
        });
    return evicted.size();
  }

  /** Unmaps {@code entry} if still mapped and drops the index's reference. */
  private boolean removeEntry(BucketEntry entry) {
    if (!backingMap.remove(entry)) {
      return false;
    }
    realCacheSize.addAndGet(-entry.storedLength());
    indexChanged.set(true);
    entry.markEvicted();
    return true;
  }

  private long evictForSpace(BucketEntry entry) {
    if (entry.isReferencedByReader() || !removeEntry(entry)) {
      return 0;
    }
    stats.evicted();
    return entry.storedLength();
  }

  private long acceptableSize() {
    return (long) (allocator.totalSize() * config.acceptFactor());
  }

  /**
   * Frees slots as HBase's freeSpace does (see the class comment). One run at a time: with {@code
   * wait} the caller waits for a running one and then runs its own, else it returns at once.
   */
  void freeSpace(boolean wait) {
    if (wait) {
      freeSpaceLock.lock();
    } else if (!freeSpaceLock.tryLock()) {
      return;
    }
    try {
      long needed = bytesToFree(allocator.sizeClassStats());
      if (needed <= 0) {
        return;
      }
      stats.evictionRun();
      long withExtra = (long) (needed * (1 + config.extraFreeFactor()));
      List<EvictionBucket<BucketEntry>> groups = priorityGroups(withExtra);
      List<EvictionBucket<BucketEntry>> byOverflow = new ArrayList<>(groups);
      byOverflow.sort(Comparator.comparingLong(EvictionBucket::overflow));
      long freed = 0;
      int remaining = byOverflow.size();
      for (EvictionBucket<BucketEntry> group : byOverflow) {
        long overflow = group.overflow();
        if (overflow > 0) {
          freed +=
              group.free(Math.min(overflow, (needed - freed) / remaining), this::evictForSpace);
        }
        remaining--;
      }
      if (bytesToFree(allocator.sizeClassStats()) > 0) {
        remaining = byOverflow.size();
        for (EvictionBucket<BucketEntry> group : byOverflow) {
          freed += group.free((withExtra - freed) / remaining, this::evictForSpace);
          remaining--;
        }
      }
      freeEntireBuckets(2 * allocator.sizeClassesWithoutFreeSlots());
    } finally {
      freeSpaceLock.unlock();
    }
  }

  /**
   * Bytes the size classes are short of their (1 - min factor) share of free slots. A class without
   * a bucket counts only if it is {@linkplain BucketAllocator#starved starved}, for one slot.
   */
  private long bytesToFree(List<SizeClassStats> classes) {
    long needed = 0;
    for (int i = 0; i < classes.size(); i++) {
      SizeClassStats sizeClass = classes.get(i);
      if (sizeClass.bucketCount() == 0) {
        needed += allocator.starved(i) ? sizeClass.itemSize() : 0;
        continue;
      }
      long freeGoal =
          Math.max(1, (long) Math.floor(sizeClass.totalSlots() * (1 - config.minFactor())));
      if (sizeClass.freeSlots() < freeGoal) {
        needed += sizeClass.itemSize() * (freeGoal - sizeClass.freeSlots());
      }
    }
    return needed;
  }

  private List<EvictionBucket<BucketEntry>> priorityGroups(long limit) {
    long total = allocator.totalSize();
    double minFactor = config.minFactor();
    List<EvictionBucket<BucketEntry>> groups =
        List.of(
            new EvictionBucket<>((long) (total * config.singleFactor() * minFactor), limit),
            new EvictionBucket<>((long) (total * config.multiFactor() * minFactor), limit),
            new EvictionBucket<>((long) (total * config.memoryFactor() * minFactor), limit));
    backingMap.forEach(
        entry -> {
          if (!entry.isReferencedByReader()) {
            groups.get(entry.priority().ordinal()).add(entry);
          }
        });
    return groups;
  }

  /**
   * Empties up to {@code count} whole buckets, least filled first, skipping buckets holding a block
   * a reader has, so an emptied bucket can serve another size class (against calcification).
   */
  private void freeEntireBuckets(int count) {
    if (count <= 0) {
      return;
    }
    int buckets = allocator.bucketCount();
    boolean[] pinned = new boolean[buckets];
    for (BucketEntry entry : backingMap.values()) {
      if (entry.isReferencedByReader()) {
        pinned[allocator.bucketIndex(entry.offset)] = true;
      }
    }
    Integer[] candidates = new Integer[buckets];
    int found = 0;
    for (int i = 0; i < buckets; i++) {
      if (!pinned[i] && allocator.usedSlots(i) > 0) {
        candidates[found++] = i;
      }
    }
    Integer[] chosen = Arrays.copyOf(candidates, found);
    double[] fill = new double[buckets];
    for (int i = 0; i < found; i++) {
      int bucket = chosen[i];
      fill[bucket] = (double) allocator.usedSlots(bucket) / allocator.totalSlots(bucket);
    }
    // Sorted by fill ratios read once: readers and writers change the live counters meanwhile,
    // and a comparator over them may contradict itself (TimSort then throws).
    Arrays.sort(chosen, Comparator.comparingDouble(bucket -> fill[bucket]));
    boolean[] emptied = new boolean[buckets];
    for (int i = 0; i < Math.min(count, chosen.length); i++) {
      emptied[chosen[i]] = true;
    }
    for (BucketEntry entry : backingMap.values()) {
      if (emptied[allocator.bucketIndex(entry.offset)]) {
        evictForSpace(entry);
      }
    }
  }

  // ---------------------------------------------------------------- state and statistics

  /**
   * Bytes of the slots in use (HBase's current size); the blocks' own bytes are {@link
   * BucketCacheSnapshot#realCacheSize()}. Blocks still queued for a writer are not counted.
   */
  @Override
  public long size() {
    return allocator.usedSize();
  }

  @Override
  public long freeSize() {
    return allocator.freeSize();
  }

  /**
   * Blocks written plus blocks queued; a block being published at that moment may be counted in
   * both (settle with {@link #awaitQueuedWrites} for an exact count).
   */
  @Override
  public long blockCount() {
    return backingMap.size() + ramCache.size();
  }

  @Override
  public CacheStats stats() {
    return stats;
  }

  /** Every figure the cache keeps, at one moment (fields read one by one). */
  public BucketCacheSnapshot snapshot() {
    long ioHits = counters.ioHits.sum();
    return new BucketCacheSnapshot(
        engine.description(),
        enabled,
        stats.snapshot(),
        allocator.totalSize(),
        allocator.usedSize(),
        realCacheSize.get(),
        allocator.freeSize(),
        backingMap.size(),
        ramCache.size(),
        ioHits,
        ioHits == 0 ? 0 : counters.ioHitNanos.sum() / 1000.0 / ioHits,
        counters.checksumFailures.sum(),
        counters.ioErrors.sum(),
        allocator.sizeClassStats());
  }

  /**
   * Waits until every block accepted so far was written to the engine or dropped, for callers that
   * need the cache settled (a benchmark's warm-up, a test).
   *
   * @return false if {@code timeoutMillis} passed first
   */
  public boolean awaitQueuedWrites(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (ramCache.size() > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(1);
    }
    return true;
  }

  /** Slot allocations not yet returned to the allocator (entries still mapped or still read). */
  long liveEntries() {
    return liveEntries.get();
  }

  /** The allocator's used bytes, for accounting checks. */
  long usedSlotBytes() {
    return allocator.usedSize();
  }

  /** A snapshot of the mapped entries in file and offset order, for the persister. */
  List<BucketEntry> entries() {
    List<BucketEntry> entries = backingMap.values();
    entries.sort(BY_FILE_AND_OFFSET);
    return entries;
  }

  /** Persists the index now (tests and tools; the persister does it periodically). */
  void persistNow() throws IOException {
    if (persister == null) {
      throw new IllegalStateException(
          "the bucket cache " + engine.description() + " is not persistent");
    }
    persister.persist();
  }

  /** Whether the index changed since the last call, clearing the flag. */
  boolean takeIndexChanged() {
    return indexChanged.getAndSet(false);
  }

  IOEngine engine() {
    return engine;
  }

  long totalSize() {
    return allocator.totalSize();
  }

  /** Stops caching after persistent engine errors: drops every block and serves only misses. */
  private void disable() {
    enabled = false;
    ramCache.clear();
    for (BucketEntry entry : backingMap.values()) {
      removeEntry(entry);
    }
  }

  /**
   * Stops the writers and the persister (persisting the index a last time), drops every block and
   * closes the engine once the last block a reader still holds is released.
   */
  @Override
  public void shutdown() {
    if (shutdown) {
      return;
    }
    shutdown = true;
    for (Thread writer : writers) {
      writer.interrupt();
    }
    for (Thread writer : writers) {
      joinUninterruptibly(writer);
    }
    if (persister != null) {
      persister.stopAndPersist();
    }
    enabled = false;
    ramCache.clear();
    for (BucketEntry entry : backingMap.values()) {
      removeEntry(entry);
    }
    if (liveEntries.get() == 0) {
      closeEngine();
    }
  }

  private static void joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeEngine() {
    if (!engineClosed.compareAndSet(false, true)) {
      return;
    }
    try {
      engine.close();
    } catch (IOException e) {
      LOG.warn("bucket cache {}: closing the engine failed", engine.description(), e);
    }
  }
}
