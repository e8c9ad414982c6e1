package dev.cellar.store;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import dev.cellar.metrics.RegionStats;
import dev.cellar.row.CollectedRow;
import dev.cellar.schema.Durability;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStore;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WalEntry;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's data (Cellar does not split tables into several regions): one {@link Store} per family
 * under the table's directory, the shared write-ahead log, and MVCC.
 *
 * <p><b>Writes</b> (HBase's {@code doMiniBatchMutate}, with the sync outside every lock, as HBase
 * 1.x had it). A write is a batch of row mutations ({@link #mutate}); a single put is a batch of
 * one. In order:
 *
 * <ol>
 *   <li>check every cell (its row, its family) before taking anything;
 *   <li>lock the rows' stripes, all at once in ascending order ({@link RowLocks});
 *   <li>take the read side of {@code updatesLock}; take one MVCC write number for the batch and
 *       queue one log entry holding every cell of the batch without waiting for it to be written
 *       ({@link WriteAheadLog#appendNoSync});
 *   <li>release the row locks;
 *   <li>add the cells to the MemStores, stamped with the write number, and release {@code
 *       updatesLock}; cells whose timestamp is {@code LATEST_TIMESTAMP} get the batch's "now" in
 *       the log entry and in the MemStore's copy, not by rebuilding them;
 *   <li>wait for the log sync of the entry, if the batch's durability asks for one;
 *   <li>complete the write number, and wait until the read point passes it.
 * </ol>
 *
 * <p>Why this is safe. <i>Order:</i> the write number and the log id are both taken while the rows
 * are locked, so two writes of one row are in the same order in the log (what replay rebuilds) and
 * in write numbers (what reads see: of two cells with the same key the higher write number wins,
 * whichever reached the MemStore first). So the row locks cover only those two steps, and writers
 * whose rows share stripes copy their cells into the MemStore in parallel. <i>Visibility:</i> reads
 * see cells up to the read point only, and the read point passes a write number only once that
 * write and every earlier one completed, which for {@code SYNC_WAL} is after its sync: nobody reads
 * a write before it is durable, and a batch is seen entirely or not at all. The last step gives
 * read-your-writes: when the call returns the read point includes it. <i>Durability:</i> the call
 * returns only after the sync, so an acknowledged {@code SYNC_WAL} write is in the log, and replay
 * after a crash restores it. <i>Failure:</i> if the sync fails the call throws, but the cells are
 * in the MemStore and their number completes (the read point must move on): like an entry whose
 * bytes reached the disk before a failed force, the write's outcome is unknown to its caller. The
 * log fails for good after a failed sync, so no later write succeeds until the database is reopened
 * and recovers from what is on disk. What the unlocked sync buys: writers of rows on a shared
 * stripe, and every other writer, queue their entries while earlier syncs are in flight and share
 * the next force instead of waiting in line for one force each.
 *
 * <p><b>Durability of a batch.</b> One log entry and at most one sync per batch, with the strongest
 * durability among its mutations ({@code FSYNC_WAL} over {@code SYNC_WAL} over {@code ASYNC_WAL}
 * over {@code SKIP_WAL}): a weaker mutation in a stronger batch is logged and synced with it. A
 * batch of only {@code SKIP_WAL} mutations writes no entry. A row may appear several times in a
 * batch: its mutations are applied in batch order with the same write number and timestamp, so for
 * one column the later value replaces the earlier, in the MemStore as in replay.
 *
 * <p><b>Read-modify-write.</b> {@link #checkAndMutate} holds the row's stripe from its read to its
 * write. Earlier writers of the stripe released it before adding their cells and before their sync,
 * so before reading it waits for the last write number taken under the stripe to complete.
 *
 * <p><b>Flushes.</b> When a MemStore passes the flush size, a flush is queued on the flush
 * executor; past four times the flush size the writer flushes itself (back-pressure, as HBase's
 * blocking multiplier). A flush snapshots every family under the write side of {@code updatesLock},
 * which writers hold only from their write number to their MemStore adds, never across a sync: the
 * snapshot holds exactly the batches applied so far, each entirely. It records the highest write
 * number handed out and, as its log id, the lower of the highest log id applied to the MemStores
 * and the log's durable id (a family whose previous flush failed gets that snapshot back with the
 * ids it was taken with: see {@link Store}). Every entry of this table up to the first is in the
 * snapshot (entries are applied under the same read lock that queued them, and later ones get
 * higher ids), and every id up to the second is durable, so the recorded id never claims an entry
 * that is missing from the files or could vanish from the log: after a crash the log assigns ids
 * above its last durable one, never an id the files already claim, and replay restarts after the
 * recorded id. Entries of the snapshot above it are replayed once more after a crash, which re-adds
 * cells the files hold already, harmlessly. The snapshot may hold writes whose sync is still in
 * flight; the files are written meanwhile, and only before adding them to the stores does the flush
 * wait for those writes to complete, since store files show every cell they hold. If a family's
 * file cannot be written the flush fails, deleting the files it wrote for the others; every
 * snapshot stays for the next flush. Once the files are added, the flush tells the log that the
 * table is flushed up to the lowest of its families' flushed log ids, which lets it delete old
 * segments: a family that still holds older edits in a snapshot keeps their segments alive. A
 * family with more files than the compaction policy's minimum gets a minor compaction on the
 * compaction executor.
 *
 * <p><b>Recovery.</b> Each family is flushed up to the highest log id its files record. Opening
 * replays the log's entries for this table after the lowest of those ids (and after the table's
 * creation), adding to each family only the edits its files do not hold; edits of a family the
 * table no longer has are skipped.
 *
 * <p><b>Alters.</b> The families are one immutable {@link Families} in a volatile field, which
 * {@link #addFamily}, {@link #deleteFamily} and {@link #modifyFamily} replace under the write side
 * of {@code updatesLock} (so no write is between its log entry and its MemStore adds) and under
 * {@code flushLock} (so no flush or other alter runs meanwhile). Every operation reads the field
 * once: a write checks its cells' families against what it read and, if an alter replaced it before
 * the write took the read lock, checks them again against the new one; a scan keeps the stores it
 * opened; a compiled Get is compiled again when the families changed ({@link #isCurrent}). Each
 * alter method says in what order it makes its change durable.
 */
public final class Region implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Region.class);
  private static final int BLOCKING_MULTIPLIER = 4;

  private final String name;
  private final Manifest manifest;
  private final Path directory;
  private final Services services;

  /** The families now: replaced whole by an alter, under the write side of {@code updatesLock}. */
  private volatile Families families;

  private final WriteAheadLog wal;
  private final long flushSize;
  private final Executor flushExecutor;
  private final Executor compactionExecutor;
  private final CompactionThrottle compactionThrottle;
  private final EngineMetrics metrics;
  private final RegionRequests requests;
  private final Mvcc mvcc;

  /** The log id when the table was created: entries up to it belong to an earlier table. */
  private final long replayAfterWalId;

  private final AtomicLong lastAppliedWalId;
  private final ReentrantReadWriteLock updatesLock = new ReentrantReadWriteLock();
  private final ReentrantLock flushLock = new ReentrantLock();
  private final RowLocks rowLocks = new RowLocks();
  private final AtomicBoolean flushQueued = new AtomicBoolean();

  /** The MemStores' footprint as last reported to the global limit ({@link MemStorePressure}). */
  private final AtomicLong reportedFootprint = new AtomicLong();

  private final AtomicBoolean compactionQueued = new AtomicBoolean();
  private volatile boolean closed;

  private Region(
      String name,
      Path directory,
      Services services,
      Manifest manifest,
      Map<String, Store> stores,
      WriteAheadLog wal,
      long flushSize,
      Executor flushExecutor,
      Executor compactionExecutor,
      CompactionThrottle compactionThrottle,
      EngineMetrics metrics,
      long replayAfterWalId) {
    this.name = name;
    this.directory = directory;
    this.services = services;
    this.metrics = metrics;
    this.requests = new RegionRequests(metrics.enabled());
    this.manifest = manifest;
    this.compactionThrottle = compactionThrottle;
    this.families = new Families(stores.values());
    this.wal = wal;
    this.flushSize = flushSize;
    this.flushExecutor = flushExecutor;
    this.compactionExecutor = compactionExecutor;
    long maxSequenceId = 0;
    long maxWalId = replayAfterWalId;
    for (Store store : stores.values()) {
      maxSequenceId = Math.max(maxSequenceId, store.maxSequenceId());
      maxWalId = Math.max(maxWalId, store.flushedWalId());
    }
    this.replayAfterWalId = replayAfterWalId;
    this.mvcc = new Mvcc(maxSequenceId);
    this.lastAppliedWalId = new AtomicLong(maxWalId);
  }

  /**
   * What a region needs from the process it lives in; {@code storage} is where the store files are
   * created, renamed and deleted.
   */
  public record Services(
      Storage storage,
      WriteAheadLog wal,
      BlockCache cache,
      BufAllocator allocator,
      ChunkPool chunkPool,
      MemStoreConfig memStoreConfig,
      CompactionPolicy compactionPolicy,
      Executor flushExecutor,
      Executor compactionExecutor,
      boolean cacheCompressedData,
      CompactionThrottle compactionThrottle,
      EngineMetrics metrics,
      MissRatioCurveTracker curve,
      MemStorePressure pressure) {

    /** HBase's key: cache the data blocks of compressed families compressed. */
    public static final String CACHE_COMPRESSED_DATA_KEY = "hbase.block.data.cachecompressed";

    /**
     * Services whose regions record into metrics of their own, which nothing reads, with no curve.
     */
    public Services(
        Storage storage,
        WriteAheadLog wal,
        BlockCache cache,
        BufAllocator allocator,
        ChunkPool chunkPool,
        MemStoreConfig memStoreConfig,
        CompactionPolicy compactionPolicy,
        Executor flushExecutor,
        Executor compactionExecutor,
        boolean cacheCompressedData,
        CompactionThrottle compactionThrottle) {
      this(
          storage,
          wal,
          cache,
          allocator,
          chunkPool,
          memStoreConfig,
          compactionPolicy,
          flushExecutor,
          compactionExecutor,
          cacheCompressedData,
          compactionThrottle,
          new EngineMetrics(),
          null,
          MemStorePressure.unlimited(flushExecutor));
    }
  }

  /**
   * Opens the table in {@code directory} with {@code families} (in family order) and replays its
   * log entries newer than both its files and {@code replayAfterWalId} (the log id when the table
   * was created, so entries of a dropped table of the same name are never replayed).
   */
  public static Region open(
      Path directory,
      String name,
      List<FamilySettings> families,
      Services services,
      long replayAfterWalId)
      throws IOException {
    Map<String, Store> stores = new LinkedHashMap<>();
    Manifest manifest =
        Manifest.open(
            services.storage(),
            directory,
            families.stream().map(FamilySettings::nameString).toList());
    try {
      for (FamilySettings family : families) {
        stores.put(family.nameString(), newStore(directory, family, manifest, services));
      }
      Region region =
          new Region(
              name,
              directory,
              services,
              manifest,
              stores,
              services.wal(),
              services.memStoreConfig().flushSize(),
              services.flushExecutor(),
              services.compactionExecutor(),
              services.compactionThrottle(),
              services.metrics(),
              replayAfterWalId);
      region.replay();
      services.pressure().register(region);
      return region;
    } catch (IOException | RuntimeException e) {
      stores.values().forEach(Store::close);
      try {
        manifest.close();
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  private static Store newStore(
      Path directory, FamilySettings family, Manifest manifest, Services services)
      throws IOException {
    MemStore memStore = new MemStore(services.memStoreConfig(), services.chunkPool());
    return new Store(
        services.storage(),
        manifest,
        directory.resolve(family.nameString()),
        family,
        memStore,
        services.cache(),
        services.curve(),
        services.allocator(),
        services.compactionPolicy(),
        services.cacheCompressedData());
  }

  private void replay() throws IOException {
    long from = Math.max(replayAfterWalId, flushedWalId());
    long[] replayed = new long[1];
    long[] skipped = new long[1];
    wal.replay(
        from,
        entry -> {
          if (entry.table().equals(name)) {
            skipped[0] += apply(entry);
            replayed[0]++;
          }
        });
    if (replayed[0] > 0) {
      LOG.info("table {}: replayed {} log entries after log id {}", name, replayed[0], from);
    }
    if (skipped[0] > 0) {
      LOG.info(
          "table {}: skipped {} replayed cells of families the table no longer has",
          name,
          skipped[0]);
    }
  }

  /**
   * Adds a replayed entry's cells to the families whose files do not hold it yet; returns how many
   * cells it skipped as of a family the table no longer has (deleted by an alter).
   */
  private long apply(WalEntry entry) {
    long number = mvcc.begin();
    long skipped = 0;
    for (Cell cell : entry.cells()) {
      Store store = families.storeOf(cell);
      if (store == null) {
        skipped++;
        continue;
      }
      if (entry.sequenceId() > store.flushedWalId()) {
        store.add(cell, number, KeyValue.LATEST_TIMESTAMP);
      }
    }
    lastAppliedWalId.accumulateAndGet(entry.sequenceId(), Math::max);
    mvcc.complete(number);
    return skipped;
  }

  public String name() {
    return name;
  }

  /** Where the table's operations are recorded (the database's metrics). */
  public EngineMetrics metrics() {
    return metrics;
  }

  /**
   * The log id up to which every edit of the table is in its files: the lowest of its families'
   * (see {@link Store#flushedWalId()}).
   */
  public long flushedWalId() {
    long lowest = Long.MAX_VALUE;
    for (Store store : families.array()) {
      lowest = Math.min(lowest, store.flushedWalId());
    }
    return lowest;
  }

  /**
   * The highest log id any family's files hold edits up to: the log this table was written with has
   * handed out at least that id.
   */
  public long highestFlushedWalId() {
    long highest = 0;
    for (Store store : families.array()) {
      highest = Math.max(highest, store.flushedWalId());
    }
    return highest;
  }

  /** The table's family names now, in family order. */
  public List<String> familyNames() {
    return List.copyOf(families.byName().keySet());
  }

  public List<Store> stores() {
    return List.copyOf(families.all());
  }

  /**
   * The region's figures now, as HBase's region server reports them ({@link RegionStats}): read
   * from the current families, their MemStores and their files' recorded sizes, without I/O or a
   * lock (a flush or compaction running meanwhile is seen before or after, per store).
   */
  public RegionStats stats() {
    int stores = 0;
    int files = 0;
    long fileBytes = 0;
    long uncompressed = 0;
    long memStore = 0;
    long rootIndex = 0;
    long index = 0;
    long bloom = 0;
    long oldestMajor = Long.MAX_VALUE;
    long flushed = Long.MAX_VALUE;
    Map<String, Long> familyFlushed = new LinkedHashMap<>();
    for (Store store : families.all()) {
      stores++;
      memStore += store.memStoreSize().dataSize();
      for (StoreFile file : store.currentFiles()) {
        files++;
        fileBytes += file.size();
        uncompressed += file.uncompressedBytes();
        rootIndex += file.rootIndexBytes();
        index += file.indexBytes();
        bloom += file.bloomBytes();
        if (file.majorCompacted()) {
          oldestMajor = Math.min(oldestMajor, file.createTime());
        }
      }
      long storeFlushed = store.flushedWalId();
      familyFlushed.put(store.family().nameString(), storeFlushed);
      flushed = Math.min(flushed, storeFlushed);
    }
    return new RegionStats(
        stores,
        files,
        fileBytes,
        uncompressed,
        memStore,
        rootIndex,
        index,
        bloom,
        requests.reads(),
        requests.writes(),
        oldestMajor == Long.MAX_VALUE ? 0 : oldestMajor,
        flushed == Long.MAX_VALUE ? 0 : flushed,
        familyFlushed);
  }

  /**
   * Applies every mutation of {@code batch} atomically: one write number, one log entry and at most
   * one log sync for the whole batch (see the class comment). Cells of {@code LATEST_TIMESTAMP} get
   * {@code nowMillis}. Returns once the batch is as durable as its strongest durability asks and
   * visible to reads.
   *
   * @throws IllegalArgumentException for a cell of another row than its mutation's, or of a family
   *     the table does not have; nothing is applied then
   * @throws IOException if the log failed (see the class comment for what was applied)
   */
  public void mutate(List<RowMutation> batch, long nowMillis) throws IOException {
    if (batch.isEmpty()) {
      return;
    }
    long start = metrics.start(Operation.PUT);
    Families checkedAgainst = families;
    List<? extends Cell> cells = checkedCells(batch, checkedAgainst);
    writeAndUnlock(cells, checkedAgainst, strongest(batch), nowMillis, rowLocks.lock(batch));
    afterWrite();
    metrics.recordSince(writeOperation(batch), start);
    metrics.add(Counter.WRITE_REQUESTS, batch.size());
    requests.wrote(batch.size());
  }

  /** The histogram a batch's write counts in: a batch, a row's puts, or a row's deletes only. */
  private static Operation writeOperation(List<RowMutation> batch) {
    if (batch.size() > 1) {
      return Operation.PUT_BATCH;
    }
    for (Cell cell : batch.getFirst().cells()) {
      if (cell.type() == CellType.PUT) {
        return Operation.PUT;
      }
    }
    return Operation.DELETE;
  }

  /**
   * Applies {@code cells}, all of row {@code row}, only if {@code check} accepts the newest value
   * of family:qualifier in {@code row} (null when there is none), atomically with respect to other
   * writes of the row.
   */
  public boolean checkAndMutate(
      byte[] row,
      byte[] family,
      byte[] qualifier,
      Predicate<byte[]> check,
      List<? extends Cell> cells,
      Durability durability,
      long nowMillis)
      throws IOException {
    long start = metrics.start(Operation.CHECK_AND_MUTATE);
    Families checkedAgainst = families;
    check(new RowMutation(row, cells, durability), checkedAgainst);
    long[] stripe = rowLocks.lock(row);
    boolean matched;
    try {
      mvcc.await(rowLocks.lastWrite(stripe));
      matched = check.test(currentValue(row, family, qualifier));
    } catch (IOException | RuntimeException e) {
      rowLocks.unlock(stripe);
      throw e;
    }
    if (!matched) {
      rowLocks.unlock(stripe);
      metrics.recordSince(Operation.CHECK_AND_MUTATE, start);
      metrics.increment(Counter.CHECK_MUTATE_FAILED);
      return false;
    }
    writeAndUnlock(cells, checkedAgainst, durability, nowMillis, stripe);
    afterWrite();
    metrics.recordSince(Operation.CHECK_AND_MUTATE, start);
    metrics.increment(Counter.CHECK_MUTATE_PASSED);
    metrics.increment(Counter.WRITE_REQUESTS);
    requests.wrote(1);
    return true;
  }

  private byte[] currentValue(byte[] row, byte[] family, byte[] qualifier) throws IOException {
    Map<String, List<byte[]>> columns =
        Map.of(new String(family, StandardCharsets.UTF_8), List.of(qualifier));
    ScanRequest get =
        new ScanRequest(row, row, true, columns, 1, 0, Long.MAX_VALUE, null, true, row, false);
    CollectedRow cells = new CollectedRow();
    try (RegionScanner scanner = scanner(get, false)) {
      return scanner.next(cells) ? cells.get(0).valueArray() : null;
    } finally {
      cells.clear();
    }
  }

  /**
   * Every cell of the batch in order, after checking each one's row and family: the mutation's own
   * list for a batch of one, else a new list.
   */
  private List<? extends Cell> checkedCells(List<RowMutation> batch, Families against) {
    for (RowMutation mutation : batch) {
      check(mutation, against);
    }
    if (batch.size() == 1) {
      return batch.getFirst().cells();
    }
    int count = 0;
    for (RowMutation mutation : batch) {
      count += mutation.cells().size();
    }
    List<Cell> cells = new ArrayList<>(count);
    for (RowMutation mutation : batch) {
      cells.addAll(mutation.cells());
    }
    return cells;
  }

  private void check(RowMutation mutation, Families against) {
    byte[] row = mutation.row();
    for (Cell cell : mutation.cells()) {
      if (!Bytes.equals(cell.segment(), cell.rowOffset(), cell.rowLength(), row)) {
        throw new IllegalArgumentException(
            "a mutation of row "
                + Bytes.toStringBinary(row)
                + " holds a cell of row "
                + Bytes.toStringBinary(cell.rowArray()));
      }
    }
    checkFamilies(mutation.cells(), against);
  }

  private void checkFamilies(List<? extends Cell> cells, Families against) {
    for (Cell cell : cells) {
      if (against.storeOf(cell) == null) {
        throw new IllegalArgumentException(
            "table "
                + name
                + " has no family "
                + Bytes.toStringBinary(cell.familyArray())
                + "; families: "
                + against.byName().keySet());
      }
    }
  }

  /**
   * The strongest durability of the batch: what its one log entry gets. Durability's constants are
   * in order of strength once {@code USE_DEFAULT} is resolved.
   */
  private static Durability strongest(List<RowMutation> batch) {
    Durability strongest = Durability.SKIP_WAL;
    for (RowMutation mutation : batch) {
      Durability durability = mutation.durability().resolved();
      if (durability.compareTo(strongest) > 0) {
        strongest = durability;
      }
    }
    return strongest;
  }

  /**
   * Writes {@code cells} with the rows' {@code stripes} locked by the caller, and releases them as
   * soon as the write's order is fixed (see the class comment): under the read side of {@code
   * updatesLock}, takes the write number and queues the log entry, notes the number on the stripes,
   * unlocks them, then adds the cells to the MemStores. Then waits for the sync the durability asks
   * for, completes the number and waits until reads see it. The stripes are unlocked whatever
   * happens; the number completes whatever happens once it was taken.
   */
  private void writeAndUnlock(
      List<? extends Cell> cells,
      Families checkedAgainst,
      Durability durability,
      long nowMillis,
      long[] stripes)
      throws IOException {
    boolean rowsLocked = true;
    long number;
    long walId;
    try {
      if (closed) {
        throw new IllegalStateException("table " + name + " is closed");
      }
      updatesLock.readLock().lock();
      try {
        Families current = families;
        if (current != checkedAgainst) {
          checkFamilies(cells, current);
        }
        number = mvcc.begin();
        try {
          walId = durability.writes() ? wal.appendNoSync(name, cells, nowMillis, durability) : 0;
          rowLocks.recordWrite(stripes, number);
          rowLocks.unlock(stripes);
          rowsLocked = false;
          for (Cell cell : cells) {
            current.storeOf(cell).add(cell, number, nowMillis);
          }
          if (durability.writes()) {
            lastAppliedWalId.accumulateAndGet(walId, Math::max);
          }
        } catch (IOException | RuntimeException e) {
          mvcc.complete(number);
          throw e;
        }
      } finally {
        updatesLock.readLock().unlock();
      }
    } finally {
      if (rowsLocked) {
        rowLocks.unlock(stripes);
      }
    }
    try {
      if (durability.waitsForForce()) {
        wal.sync(walId);
      }
    } finally {
      mvcc.completeAndWait(number);
    }
  }

  private void afterWrite() throws IOException {
    long largest = 0;
    long footprint = 0;
    for (Store store : families.array()) {
      long size = store.memStoreFootprint();
      largest = Math.max(largest, size);
      footprint += size;
    }
    services.pressure().grew(footprint - reportedFootprint.getAndSet(footprint));
    if (largest >= BLOCKING_MULTIPLIER * flushSize) {
      flush();
    } else if (largest >= flushSize && flushQueued.compareAndSet(false, true)) {
      flushExecutor.execute(
          () -> {
            flushQueued.set(false);
            try {
              if (!closed) {
                flush();
              }
            } catch (IOException | RuntimeException e) {
              LOG.error("table {}: background flush failed", name, e);
            }
          });
    }
  }

  /** A scanner for {@code request}, its rows counted as scanned; the caller closes it. */
  public RegionScanner scanner(ScanRequest request) throws IOException {
    return scanner(request, true);
  }

  /**
   * A scanner for {@code request} that counts its rows as scanned ({@code counted}), or not at all
   * (a read that counts as another operation); the caller closes it.
   */
  private RegionScanner scanner(ScanRequest request, boolean counted) throws IOException {
    long readPoint = mvcc.readPoint();
    long now = System.currentTimeMillis();
    List<FamilyScanner> scanners = new ArrayList<>();
    try {
      for (Map.Entry<String, Store> entry : families.byName().entrySet()) {
        if (!request.columns().isEmpty() && !request.columns().containsKey(entry.getKey())) {
          continue;
        }
        Store store = entry.getValue();
        FamilySettings family = store.family();
        ScanSpec spec =
            new ScanSpec(
                request.columns().get(entry.getKey()),
                Math.min(request.maxVersions(), family.maxVersions()),
                request.minTimestamp(),
                request.maxTimestamp(),
                family.ttlMillis(),
                family.minVersions(),
                now,
                request.filter());
        long oldestWanted =
            family.minVersions() > 0
                ? request.minTimestamp()
                : Math.max(request.minTimestamp(), spec.oldestUnexpiredTimestamp());
        byte[] low = request.reversed() ? request.stopRow() : request.startRow();
        byte[] high =
            request.reversed()
                ? (request.startRow().length == 0
                    ? request.startRow()
                    : rowAfter(request.startRow()))
                : (request.stopRowInclusive() && request.stopRow().length > 0
                    ? rowAfter(request.stopRow())
                    : request.stopRow());
        List<KeyValueScanner> sources =
            store.scanners(
                readPoint, request.cacheBlocks(), low, high, request.getRow(), oldestWanted);
        scanners.add(
            request.reversed()
                ? new ReversedStoreScanner(sources, spec, request.startRow())
                : new StoreScanner(
                    sources,
                    spec,
                    KeyValue.firstOnRow(request.startRow()),
                    request.getRow() != null));
      }
    } catch (IOException | RuntimeException e) {
      scanners.forEach(FamilyScanner::close);
      throw e;
    }
    return new RegionScanner(
        scanners,
        request.stopRow(),
        request.stopRowInclusive(),
        request.reversed(),
        request.filter(),
        counted ? metrics : null,
        counted ? requests : null);
  }

  /**
   * Compiles a Get's request (its row fields are ignored) into a plan for {@link #get}: the
   * families it reads with their columns, versions, time range and TTL.
   */
  public GetPlan planGet(ScanRequest request) {
    List<Store> read = new ArrayList<>();
    List<ScanSpec> specs = new ArrayList<>();
    Families current = families;
    for (Map.Entry<String, Store> entry : current.byName().entrySet()) {
      if (!request.columns().isEmpty() && !request.columns().containsKey(entry.getKey())) {
        continue;
      }
      FamilySettings family = entry.getValue().family();
      read.add(entry.getValue());
      specs.add(
          new ScanSpec(
              request.columns().get(entry.getKey()),
              Math.min(request.maxVersions(), family.maxVersions()),
              request.minTimestamp(),
              request.maxTimestamp(),
              family.ttlMillis(),
              family.minVersions(),
              0,
              null));
    }
    return new GetPlan(
        this,
        current,
        request,
        read,
        specs,
        request.cacheBlocks(),
        request.filter() == null ? null : request);
  }

  /**
   * Whether {@code plan} was made for the table's families as they are now: after an alter a plan
   * is made again, since its families, versions or TTLs may have changed.
   */
  public boolean isCurrent(GetPlan plan) {
    return plan.families == families;
  }

  /**
   * Reads {@code row} as {@code plan} says into {@code out} (appending; the caller clears it),
   * reusing {@code state}, one reader thread's. Without a filter this allocates nothing once the
   * state and the row holder have grown to the row's size; with one it reads through a region
   * scanner.
   */
  public void get(GetPlan given, byte[] row, RegionPointRead state, CollectedRow out)
      throws IOException {
    if (given.region != this) {
      throw new IllegalArgumentException(
          "the plan was made for table " + given.region.name() + ", not " + name);
    }
    GetPlan plan = isCurrent(given) ? given : planGet(given.request);
    long start = metrics.start(Operation.GET);
    if (plan.scanned != null) {
      getThroughScanner(plan.scanned, row, out);
      countGet(start);
      return;
    }
    long readPoint = mvcc.readPoint();
    long now = System.currentTimeMillis();
    Cell rowStart = state.rowStart.firstOnRow(row);
    for (int i = 0; i < plan.stores.size(); i++) {
      Store store = plan.stores.get(i);
      state.of(store).read(row, rowStart, plan.specs.get(i), readPoint, now, plan.cacheBlocks, out);
    }
    countGet(start);
  }

  private void countGet(long start) {
    metrics.recordSince(Operation.GET, start);
    metrics.increment(Counter.READ_REQUESTS);
    requests.read();
  }

  private void getThroughScanner(ScanRequest template, byte[] row, CollectedRow out)
      throws IOException {
    ScanRequest request =
        new ScanRequest(
            row,
            row,
            true,
            template.columns(),
            template.maxVersions(),
            template.minTimestamp(),
            template.maxTimestamp(),
            template.filter(),
            template.cacheBlocks(),
            row,
            false);
    try (RegionScanner scanner = scanner(request, false)) {
      scanner.next(out);
    }
  }

  /** The smallest row after {@code row}: the stop row of a one-row scan. */
  public static byte[] rowAfter(byte[] row) {
    byte[] next = new byte[row.length + 1];
    System.arraycopy(row, 0, next, 0, row.length);
    return next;
  }

  /**
   * Writes every family's MemStore to new files and lets the log drop the flushed entries (see the
   * class comment for what it records and why it waits before adding the files).
   */
  public void flush() throws IOException {
    flushLock.lock();
    long start = metrics.start(Operation.FLUSH);
    try {
      Map<Store, Store.Flush> snapshots = new LinkedHashMap<>();
      long maxSequenceId = 0;
      updatesLock.writeLock().lock();
      try {
        long lastWritten = mvcc.lastWritten();
        long walId = Math.min(lastAppliedWalId.get(), wal.durableSequenceId());
        for (Store store : families.all()) {
          Store.Flush flush = store.snapshot(lastWritten, walId);
          snapshots.put(store, flush);
          maxSequenceId = Math.max(maxSequenceId, flush.maxSequenceId());
        }
      } finally {
        updatesLock.writeLock().unlock();
      }
      Map<Store, Path> written = writeFlushes(snapshots);
      mvcc.await(maxSequenceId);
      Map<Store, StoreFile> opened = recordFlush(snapshots, written);
      for (Map.Entry<Store, Store.Flush> entry : snapshots.entrySet()) {
        entry.getKey().commitFlush(entry.getValue(), opened.get(entry.getKey()));
      }
      wal.markFlushed(name, flushedWalId());
      countFlush(snapshots, written, start);
    } finally {
      flushLock.unlock();
    }
    requestCompactionIfNeeded();
  }

  /** Counts a flush that wrote anything: its time, the MemStore bytes and the file bytes. */
  private void countFlush(Map<Store, Store.Flush> snapshots, Map<Store, Path> written, long start) {
    long memStoreBytes = 0;
    for (Store.Flush flush : snapshots.values()) {
      memStoreBytes += flush.snapshot().size().dataSize();
    }
    if (memStoreBytes == 0) {
      return;
    }
    metrics.recordSince(Operation.FLUSH, start);
    metrics.add(Counter.FLUSHED_MEMSTORE_BYTES, memStoreBytes);
    for (Path path : written.values()) {
      if (path != null) {
        metrics.add(Counter.FLUSHED_OUTPUT_BYTES, fileSize(path));
      }
    }
  }

  private static long fileSize(Path path) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * Writes every family's snapshot to a new file; if one fails, deletes the files written so far
   * (their snapshots stay and are written again by the next flush) and throws.
   */
  private static Map<Store, Path> writeFlushes(Map<Store, Store.Flush> snapshots)
      throws IOException {
    Map<Store, Path> written = new LinkedHashMap<>();
    try {
      for (Map.Entry<Store, Store.Flush> entry : snapshots.entrySet()) {
        written.put(entry.getKey(), entry.getKey().writeFlush(entry.getValue()));
      }
      return written;
    } catch (IOException | RuntimeException e) {
      for (Map.Entry<Store, Path> done : written.entrySet()) {
        if (done.getValue() != null) {
          try {
            done.getKey().discardFlush(done.getValue());
          } catch (IOException | RuntimeException discardFailure) {
            e.addSuppressed(discardFailure);
          }
        }
      }
      throw e;
    }
  }

  /**
   * Opens the files a flush wrote and records them, with every family's flushed log id, as one
   * manifest record; then throws if either failed (the snapshots stay for the next flush). Files
   * that could not be opened are deleted; once the record was attempted they are kept, closed,
   * since it may have reached the disk (the next open keeps them if it did and deletes them as
   * unrecorded if not).
   */
  private Map<Store, StoreFile> recordFlush(
      Map<Store, Store.Flush> snapshots, Map<Store, Path> written) throws IOException {
    Map<Store, StoreFile> opened = new LinkedHashMap<>();
    List<Manifest.Edit> edits = new ArrayList<>();
    try {
      for (Map.Entry<Store, Store.Flush> entry : snapshots.entrySet()) {
        Path path = written.get(entry.getKey());
        if (path != null) {
          opened.put(entry.getKey(), entry.getKey().openFlushed(path));
        }
        edits.add(entry.getKey().flushEdit(entry.getValue(), path));
      }
    } catch (IOException | RuntimeException e) {
      opened.values().forEach(StoreFile::retire);
      for (Map.Entry<Store, Path> file : written.entrySet()) {
        if (file.getValue() != null && !opened.containsKey(file.getKey())) {
          try {
            file.getKey().discardFlush(file.getValue());
          } catch (IOException | RuntimeException discardFailure) {
            e.addSuppressed(discardFailure);
          }
        }
      }
      throw e;
    }
    try {
      manifest.append(edits);
    } catch (IOException | RuntimeException e) {
      opened.values().forEach(StoreFile::close);
      throw e;
    }
    return opened;
  }

  /**
   * Flushes, then pins every family's files while still holding the flush lock, so the sets are
   * those of one moment: what the table held when the flush snapshotted it, whatever writes,
   * flushes and compactions follow. The caller releases every file.
   */
  Map<Store, List<StoreFile>> flushAndPinFiles() throws IOException {
    flushLock.lock();
    try {
      flush();
      Map<Store, List<StoreFile>> pinned = new LinkedHashMap<>();
      for (Store store : families.all()) {
        pinned.put(store, store.pinFiles());
      }
      return pinned;
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * The directory in which files to bulk load into {@code family} are staged (see {@link
   * #bulkLoad}).
   *
   * @throws IllegalArgumentException if the table has no such family
   */
  public Path bulkLoadStaging(String family) throws IOException {
    return storeNamed(family).stagingDirectory();
  }

  /**
   * Adds staged HFiles ({@code staged}: family name to files in its {@link #bulkLoadStaging}
   * directory, already verified) to the table as HBase's bulk load does: the MemStores are flushed
   * first, then every file gets one new sequence id, which it is named with ({@code
   * <hex>_SeqId_<n>_}) and which all its cells read with, so the loaded cells are newer than every
   * write before the load and older than every write after it. The files enter through one manifest
   * record: after a crash each is in the table or none is. Reads see all of them or none: reads
   * whose read point is below the load's sequence id skip its files, and that id completes only
   * once every file was added to its store. If anything fails before that record, the files placed
   * so far are renamed back to their staged paths and the table is as before.
   *
   * @return the sequence id the files were loaded at
   */
  public long bulkLoad(Map<String, List<Path>> staged) throws IOException {
    flushLock.lock();
    try {
      Map<Store, List<Path>> byStore = new LinkedHashMap<>();
      staged.forEach((family, files) -> byStore.put(storeNamed(family), files));
      if (closed) {
        throw new IllegalStateException("table " + name + " is closed");
      }
      flush();
      long sequenceId = mvcc.begin();
      try {
        BulkLoadCommit.commit(manifest, byStore, sequenceId);
      } finally {
        mvcc.complete(sequenceId);
      }
      LOG.info("table {}: bulk loaded {} at sequence id {}", name, staged, sequenceId);
      return sequenceId;
    } finally {
      flushLock.unlock();
    }
  }

  /** Makes a change to the table's schema durable (its descriptor file); see the alters below. */
  @FunctionalInterface
  public interface SchemaRecord {
    void write() throws IOException;
  }

  /**
   * Adds an empty family (HBase's {@code addColumnFamily}). In order: its directory is created; the
   * log is rolled (which forces every entry written so far) and the manifest records the family as
   * flushed up to the log's durable id, so that entries of an earlier family of that name are never
   * replayed into it, while every entry written to it gets a higher id, after a crash too; {@code
   * record} makes it part of the table's descriptor; then writes and reads see it. A crash before
   * {@code record} completes leaves a family no descriptor names, whose directory the next open
   * deletes.
   *
   * @throws IllegalArgumentException if the table has that family already
   */
  public void addFamily(FamilySettings family, SchemaRecord record) throws IOException {
    String familyName = family.nameString();
    flushLock.lock();
    try {
      checkOpen();
      if (families.byName().containsKey(familyName)) {
        throw new IllegalArgumentException(
            "table " + name + " has family " + familyName + " already");
      }
      Path familyDirectory = directory.resolve(familyName);
      services.storage().createDirectories(familyDirectory);
      services.storage().syncDirectory(directory);
      wal.roll();
      manifest.addFamily(familyName, wal.durableSequenceId());
      record.write();
      Store store = newStore(directory, family, manifest, services);
      updatesLock.writeLock().lock();
      try {
        families = families.with(store);
      } finally {
        updatesLock.writeLock().unlock();
      }
      LOG.info("table {}: added family {}", name, familyName);
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * Deletes a family and its data (HBase's {@code deleteColumnFamily}). {@code record} first
   * removes it from the table's descriptor (from then on it is gone, after a crash too); then
   * writes and new reads stop seeing it, its files are retired (each deleted once no open scanner
   * reads it; scanners opened before keep their view) and the manifest forgets it. Its directory
   * goes now if no reader holds one of its files, else with the next open.
   *
   * @throws IllegalArgumentException if the table has no such family, or no other
   */
  public void deleteFamily(String family, SchemaRecord record) throws IOException {
    flushLock.lock();
    try {
      checkOpen();
      Store store = storeNamed(family);
      if (families.size() == 1) {
        throw new IllegalArgumentException(
            "family "
                + family
                + " is the only family of table "
                + name
                + "; a table needs at least one");
      }
      record.write();
      updatesLock.writeLock().lock();
      try {
        families = families.without(family);
      } finally {
        updatesLock.writeLock().unlock();
      }
      store.drop();
      manifest.dropFamily(family);
      wal.markFlushed(name, flushedWalId());
      deleteDirectoryIfUnread(directory.resolve(family));
      LOG.info("table {}: deleted family {}", name, family);
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * Changes a family's attributes (HBase's {@code modifyColumnFamily}): {@code record} makes them
   * durable, then flushes, compactions and reads that start afterwards use them (see {@link
   * Store#changeSettings}); a scanner opened before keeps its versions and TTL.
   *
   * @throws IllegalArgumentException if the table has no such family
   */
  public void modifyFamily(FamilySettings family, SchemaRecord record) throws IOException {
    flushLock.lock();
    try {
      checkOpen();
      Store store = storeNamed(family.nameString());
      record.write();
      updatesLock.writeLock().lock();
      try {
        store.changeSettings(family);
        families = new Families(families.all());
      } finally {
        updatesLock.writeLock().unlock();
      }
      LOG.info("table {}: modified family {}", name, family.nameString());
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * Deletes a deleted family's directory if no reader holds one of its files any more (each went
   * with its last reader); else the next open deletes it.
   */
  private void deleteDirectoryIfUnread(Path familyDirectory) throws IOException {
    Storage storage = services.storage();
    for (Path child : storage.list(familyDirectory)) {
      if (storage.isFile(child)) {
        return;
      }
    }
    deleteTree(storage, familyDirectory);
    storage.syncDirectory(directory);
  }

  private static void deleteTree(Storage storage, Path path) throws IOException {
    if (storage.isDirectory(path)) {
      for (Path child : storage.list(path)) {
        deleteTree(storage, child);
      }
    }
    storage.deleteIfExists(path);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("table " + name + " is closed");
    }
  }

  private Store storeNamed(String family) {
    Store store = families.byName().get(family);
    if (store == null) {
      throw new IllegalArgumentException(
          "table "
              + name
              + " has no family "
              + family
              + "; families: "
              + families.byName().keySet());
    }
    return store;
  }

  private void requestCompactionIfNeeded() {
    boolean needed = families.all().stream().anyMatch(Store::needsCompaction);
    if (!needed || closed || !compactionQueued.compareAndSet(false, true)) {
      return;
    }
    compactionExecutor.execute(
        () -> {
          compactionQueued.set(false);
          try {
            compact(false, compactionThrottle);
          } catch (IOException | RuntimeException e) {
            LOG.error("table {}: background compaction failed", name, e);
          }
        });
  }

  /**
   * Compacts every family (see {@link Store#compact}) at full speed, as a caller who waits for it
   * asks; returns whether any files changed.
   */
  public boolean compact(boolean major) throws IOException {
    return compact(major, CompactionThrottle.NONE);
  }

  private boolean compact(boolean major, CompactionThrottle throttle) throws IOException {
    boolean any = false;
    for (Store store : families.all()) {
      if (closed) {
        break;
      }
      long start = metrics.start(major ? Operation.MAJOR_COMPACTION : Operation.COMPACTION);
      if (store.compact(major, System.currentTimeMillis(), throttle)) {
        metrics.recordSince(major ? Operation.MAJOR_COMPACTION : Operation.COMPACTION, start);
        any = true;
      }
    }
    return any;
  }

  /** The MemStores' heap plus off-heap bytes, allocating nothing. */
  long memStoreFootprint() {
    long footprint = 0;
    for (Store store : families.array()) {
      footprint += store.memStoreFootprint();
    }
    return footprint;
  }

  /** Flushes unless the region was closed meanwhile (a flush the global limit asks for). */
  void flushIfOpen() throws IOException {
    if (!closed) {
      flush();
    }
  }

  /** Flushes what the MemStores hold and closes the stores (keeping their files). */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    services.pressure().unregister(this);
    try {
      flush();
    } finally {
      closed = true;
      flushLock.lock();
      try {
        families.all().forEach(Store::close);
      } finally {
        flushLock.unlock();
        manifest.close();
      }
    }
  }

  /** Closes the stores without flushing (after a failure; the log still holds the edits). */
  public void abort() {
    closed = true;
    services.pressure().unregister(this);
    families.all().forEach(Store::close);
    try {
      manifest.close();
    } catch (IOException e) {
      LOG.warn("table {}: closing the manifest failed", name, e);
    }
  }
}
