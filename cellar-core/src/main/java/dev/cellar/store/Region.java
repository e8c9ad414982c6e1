package dev.cellar.store;

import dev.cellar.cache.BlockCache;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.BufAllocator;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStore;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.memstore.MemStoreSnapshot;
import dev.cellar.store.wal.Durability;
import dev.cellar.store.wal.WalEntry;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p><b>Writes.</b> A mutation of one row takes the row's lock (striped), resolves "now"
 * timestamps, takes a write number, appends the cells to the log with the requested durability,
 * adds them to the families' MemStores and completes the write number, all under the read side of
 * {@code updatesLock}. Reads see a mutation entirely or not at all (the MVCC read point).
 *
 * <p><b>Flushes.</b> When a MemStore passes the flush size, a flush is queued on the flush
 * executor; past four times the flush size the writer flushes itself (back-pressure, as HBase's
 * blocking multiplier). A flush snapshots every family under the write side of {@code
 * updatesLock} (so the snapshot holds exactly the writes applied so far), writes the snapshots to
 * new files recording the highest write number and log id they contain, then tells the log that
 * those entries are flushed, which lets it delete old segments. A family with more files than the
 * compaction policy's minimum gets a minor compaction on the compaction executor.
 *
 * <p><b>Recovery.</b> Opening replays the log's entries for this table newer than the highest log
 * id recorded in the table's files.
 */
public final class Region implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Region.class);
  private static final int ROW_LOCK_STRIPES = 256;
  private static final int BLOCKING_MULTIPLIER = 4;

  private final String name;
  private final Map<String, Store> stores;
  private final WriteAheadLog wal;
  private final long flushSize;
  private final Executor flushExecutor;
  private final Executor compactionExecutor;
  private final Mvcc mvcc;
  private final AtomicLong lastAppliedWalId;
  private final ReentrantReadWriteLock updatesLock = new ReentrantReadWriteLock();
  private final ReentrantLock flushLock = new ReentrantLock();
  private final ReentrantLock[] rowLocks = new ReentrantLock[ROW_LOCK_STRIPES];
  private final AtomicBoolean flushQueued = new AtomicBoolean();
  private final AtomicBoolean compactionQueued = new AtomicBoolean();
  private volatile boolean closed;

  private Region(String name, Map<String, Store> stores, WriteAheadLog wal, long flushSize,
      Executor flushExecutor, Executor compactionExecutor, long replayAfterWalId) {
    this.name = name;
    this.stores = stores;
    this.wal = wal;
    this.flushSize = flushSize;
    this.flushExecutor = flushExecutor;
    this.compactionExecutor = compactionExecutor;
    long maxSequenceId = 0;
    long maxWalId = replayAfterWalId;
    for (Store store : stores.values()) {
      maxSequenceId = Math.max(maxSequenceId, store.maxSequenceId());
      maxWalId = Math.max(maxWalId, store.maxWalId());
    }
    this.mvcc = new Mvcc(maxSequenceId);
    this.lastAppliedWalId = new AtomicLong(maxWalId);
    for (int i = 0; i < ROW_LOCK_STRIPES; i++) {
      rowLocks[i] = new ReentrantLock();
    }
  }

  /** What a region needs from the process it lives in. */
  public record Services(WriteAheadLog wal, BlockCache cache, BufAllocator allocator,
      ChunkPool chunkPool, MemStoreConfig memStoreConfig, CompactionPolicy compactionPolicy,
      Executor flushExecutor, Executor compactionExecutor) {}

  /**
   * Opens the table in {@code directory} with {@code families} (in family order) and replays its
   * log entries newer than both its files and {@code replayAfterWalId} (the log id when the table
   * was created, so entries of a dropped table of the same name are never replayed).
   */
  public static Region open(Path directory, String name, List<FamilySettings> families,
      Services services, long replayAfterWalId) throws IOException {
    Map<String, Store> stores = new LinkedHashMap<>();
    try {
      for (FamilySettings family : families) {
        MemStore memStore = new MemStore(services.memStoreConfig(), services.chunkPool());
        stores.put(family.nameString(), new Store(directory.resolve(family.nameString()), family,
            memStore, services.cache(), services.allocator(), services.compactionPolicy()));
      }
      Region region = new Region(name, stores, services.wal(),
          services.memStoreConfig().flushSize(), services.flushExecutor(),
          services.compactionExecutor(), replayAfterWalId);
      region.replay();
      return region;
    } catch (IOException | RuntimeException e) {
      stores.values().forEach(Store::close);
      throw e;
    }
  }

  private void replay() throws IOException {
    long from = lastAppliedWalId.get();
    long[] replayed = new long[1];
    wal.replay(from, entry -> {
      if (entry.table().equals(name)) {
        apply(entry);
        replayed[0]++;
      }
    });
    if (replayed[0] > 0) {
      LOG.info("table {}: replayed {} log entries after log id {}", name, replayed[0], from);
    }
  }

  private void apply(WalEntry entry) {
    long number = mvcc.begin();
    for (Cell cell : entry.cells()) {
      Store store = storeOf(cell);
      if (store == null) {
        LOG.warn("table {}: log entry {} names a family the table no longer has; skipped", name,
            entry.sequenceId());
        continue;
      }
      store.add(cell, number);
    }
    lastAppliedWalId.accumulateAndGet(entry.sequenceId(), Math::max);
    mvcc.complete(number);
  }

  public String name() {
    return name;
  }

  public List<Store> stores() {
    return List.copyOf(stores.values());
  }

  private Store storeOf(Cell cell) {
    return stores.get(new String(cell.familyArray(), StandardCharsets.UTF_8));
  }

  private ReentrantLock rowLock(byte[] row) {
    return rowLocks[Arrays.hashCode(row) & (ROW_LOCK_STRIPES - 1)];
  }

  /**
   * Applies {@code cells}, all of row {@code row}, atomically; "now" timestamps become {@code
   * nowMillis}.
   *
   * @throws IllegalArgumentException for a cell of another row or an unknown family
   */
  public void mutate(byte[] row, List<? extends Cell> cells, Durability durability,
      long nowMillis) throws IOException {
    ReentrantLock lock = rowLock(row);
    lock.lock();
    try {
      mutateLocked(row, cells, durability, nowMillis);
    } finally {
      lock.unlock();
    }
    afterWrite();
  }

  /**
   * Applies {@code cells} only if {@code check} accepts the newest value of family:qualifier in
   * {@code row} (null when there is none), atomically with respect to other writes of the row.
   */
  public boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier,
      Predicate<byte[]> check, List<? extends Cell> cells, Durability durability,
      long nowMillis) throws IOException {
    ReentrantLock lock = rowLock(row);
    lock.lock();
    try {
      byte[] current = currentValue(row, family, qualifier);
      if (!check.test(current)) {
        return false;
      }
      mutateLocked(row, cells, durability, nowMillis);
    } finally {
      lock.unlock();
    }
    afterWrite();
    return true;
  }

  private byte[] currentValue(byte[] row, byte[] family, byte[] qualifier) throws IOException {
    Map<String, List<byte[]>> columns = Map.of(
        new String(family, StandardCharsets.UTF_8), List.of(qualifier));
    ScanRequest get = new ScanRequest(row, row, true, columns, 1, 0, Long.MAX_VALUE, null, true,
        row, false);
    Pins pins = new Pins();
    try (RegionScanner scanner = scanner(get)) {
      List<Cell> cells = new ArrayList<>();
      return scanner.next(cells, pins) && !cells.isEmpty() ? cells.get(0).valueArray() : null;
    } finally {
      pins.release();
    }
  }

  private void mutateLocked(byte[] row, List<? extends Cell> cells, Durability durability,
      long nowMillis) throws IOException {
    if (closed) {
      throw new IllegalStateException("table " + name + " is closed");
    }
    List<Cell> resolved = new ArrayList<>(cells.size());
    for (Cell cell : cells) {
      if (!Bytes.equals(cell.segment(), cell.rowOffset(), cell.rowLength(),
          MemorySegment.ofArray(row), 0, row.length)) {
        throw new IllegalArgumentException("a mutation of row " + Bytes.toStringBinary(row)
            + " holds a cell of row " + Bytes.toStringBinary(cell.rowArray()));
      }
      if (storeOf(cell) == null) {
        throw new IllegalArgumentException("table " + name + " has no family "
            + Bytes.toStringBinary(cell.familyArray()) + "; families: " + stores.keySet());
      }
      resolved.add(cell.timestamp() == KeyValue.LATEST_TIMESTAMP
          ? KeyValue.create(cell.rowArray(), cell.familyArray(), cell.qualifierArray(), nowMillis,
              cell.type(), cell.valueArray())
          : cell);
    }
    updatesLock.readLock().lock();
    try {
      long number = mvcc.begin();
      try {
        long walId = wal.append(name, resolved, durability);
        for (Cell cell : resolved) {
          storeOf(cell).add(cell, number);
        }
        if (durability != Durability.SKIP_WAL) {
          lastAppliedWalId.accumulateAndGet(walId, Math::max);
        }
      } finally {
        mvcc.complete(number);
      }
    } finally {
      updatesLock.readLock().unlock();
    }
  }

  private void afterWrite() throws IOException {
    long largest = 0;
    for (Store store : stores.values()) {
      largest = Math.max(largest, store.memStoreSize().footprint());
    }
    if (largest >= BLOCKING_MULTIPLIER * flushSize) {
      flush();
    } else if (largest >= flushSize && flushQueued.compareAndSet(false, true)) {
      flushExecutor.execute(() -> {
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

  /** A scanner for {@code request}; the caller closes it. */
  public RegionScanner scanner(ScanRequest request) throws IOException {
    long readPoint = mvcc.readPoint();
    long now = System.currentTimeMillis();
    List<FamilyScanner> scanners = new ArrayList<>();
    try {
      for (Map.Entry<String, Store> entry : stores.entrySet()) {
        if (!request.columns().isEmpty() && !request.columns().containsKey(entry.getKey())) {
          continue;
        }
        Store store = entry.getValue();
        FamilySettings family = store.family();
        ScanSpec spec = new ScanSpec(request.columns().get(entry.getKey()),
            Math.min(request.maxVersions(), family.maxVersions()), request.minTimestamp(),
            request.maxTimestamp(), family.ttlMillis(), family.minVersions(), now,
            request.filter());
        long oldestWanted = family.minVersions() > 0 ? request.minTimestamp()
            : Math.max(request.minTimestamp(), spec.oldestUnexpiredTimestamp());
        byte[] low = request.reversed() ? request.stopRow() : request.startRow();
        byte[] high = request.reversed()
            ? (request.startRow().length == 0 ? request.startRow() : rowAfter(request.startRow()))
            : (request.stopRowInclusive() && request.stopRow().length > 0
                ? rowAfter(request.stopRow()) : request.stopRow());
        List<KeyValueScanner> sources = store.scanners(readPoint, request.cacheBlocks(), low, high,
            request.getRow(), oldestWanted);
        scanners.add(request.reversed()
            ? new ReversedStoreScanner(sources, spec, request.startRow())
            : new StoreScanner(sources, spec, KeyValue.firstOnRow(request.startRow()),
                request.getRow() != null));
      }
    } catch (IOException | RuntimeException e) {
      scanners.forEach(FamilyScanner::close);
      throw e;
    }
    return new RegionScanner(scanners, request.stopRow(), request.stopRowInclusive(),
        request.reversed(), request.filter());
  }

  /**
   * Compiles a Get's request (its row fields are ignored) into a plan for {@link #get}: the
   * families it reads with their columns, versions, time range and TTL.
   */
  public GetPlan planGet(ScanRequest request) {
    List<Store> read = new ArrayList<>();
    List<ScanSpec> specs = new ArrayList<>();
    for (Map.Entry<String, Store> entry : stores.entrySet()) {
      if (!request.columns().isEmpty() && !request.columns().containsKey(entry.getKey())) {
        continue;
      }
      FamilySettings family = entry.getValue().family();
      read.add(entry.getValue());
      specs.add(new ScanSpec(request.columns().get(entry.getKey()),
          Math.min(request.maxVersions(), family.maxVersions()), request.minTimestamp(),
          request.maxTimestamp(), family.ttlMillis(), family.minVersions(), 0, null));
    }
    return new GetPlan(this, read, specs, request.cacheBlocks(),
        request.filter() == null ? null : request);
  }

  /**
   * Reads {@code row} as {@code plan} says into {@code out} (appending; the caller clears it),
   * reusing {@code state}, one reader thread's. Without a filter this allocates nothing once the
   * state and the row holder have grown to the row's size; with one it reads through a region
   * scanner and copies the cells.
   */
  public void get(GetPlan plan, byte[] row, RegionPointRead state, CollectedRow out)
      throws IOException {
    if (plan.region != this) {
      throw new IllegalArgumentException("the plan was made for table " + plan.region.name()
          + ", not " + name);
    }
    if (plan.scanned != null) {
      getThroughScanner(plan.scanned, row, out);
      return;
    }
    long readPoint = mvcc.readPoint();
    long now = System.currentTimeMillis();
    Cell rowStart = state.rowStart.firstOnRow(row);
    for (int i = 0; i < plan.stores.size(); i++) {
      Store store = plan.stores.get(i);
      state.of(store).read(row, rowStart, plan.specs.get(i), readPoint, now, plan.cacheBlocks,
          out);
    }
  }

  private void getThroughScanner(ScanRequest template, byte[] row, CollectedRow out)
      throws IOException {
    ScanRequest request = new ScanRequest(row, row, true, template.columns(),
        template.maxVersions(), template.minTimestamp(), template.maxTimestamp(),
        template.filter(), template.cacheBlocks(), row, false);
    Pins pins = new Pins();
    try (RegionScanner scanner = scanner(request)) {
      List<Cell> cells = new ArrayList<>();
      if (scanner.next(cells, pins)) {
        for (Cell cell : cells) {
          out.addCopy(cell);
        }
      }
    } finally {
      pins.release();
    }
  }

  /** The smallest row after {@code row}: the stop row of a one-row scan. */
  public static byte[] rowAfter(byte[] row) {
    byte[] next = new byte[row.length + 1];
    System.arraycopy(row, 0, next, 0, row.length);
    return next;
  }

  /** Writes every family's MemStore to new files and lets the log drop the flushed entries. */
  public void flush() throws IOException {
    flushLock.lock();
    try {
      Map<Store, MemStoreSnapshot> snapshots = new LinkedHashMap<>();
      long maxSequenceId;
      long walId;
      updatesLock.writeLock().lock();
      try {
        for (Store store : stores.values()) {
          snapshots.put(store, store.snapshot());
        }
        maxSequenceId = mvcc.lastWritten();
        walId = Math.min(lastAppliedWalId.get(), wal.durableSequenceId());
      } finally {
        updatesLock.writeLock().unlock();
      }
      for (Map.Entry<Store, MemStoreSnapshot> entry : snapshots.entrySet()) {
        entry.getKey().flush(entry.getValue(), maxSequenceId, walId);
      }
      wal.markFlushed(name, walId);
    } finally {
      flushLock.unlock();
    }
    requestCompactionIfNeeded();
  }

  private void requestCompactionIfNeeded() {
    boolean needed = stores.values().stream().anyMatch(Store::needsCompaction);
    if (!needed || closed || !compactionQueued.compareAndSet(false, true)) {
      return;
    }
    compactionExecutor.execute(() -> {
      compactionQueued.set(false);
      try {
        compact(false);
      } catch (IOException | RuntimeException e) {
        LOG.error("table {}: background compaction failed", name, e);
      }
    });
  }

  /** Compacts every family (see {@link Store#compact}); returns whether any files changed. */
  public boolean compact(boolean major) throws IOException {
    boolean any = false;
    for (Store store : stores.values()) {
      if (closed) {
        break;
      }
      any |= store.compact(major, System.currentTimeMillis());
    }
    return any;
  }

  /** Flushes what the MemStores hold and closes the stores (keeping their files). */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      flush();
    } finally {
      closed = true;
      flushLock.lock();
      try {
        stores.values().forEach(Store::close);
      } finally {
        flushLock.unlock();
      }
    }
  }

  /** Closes the stores without flushing (after a failure; the log still holds the edits). */
  public void abort() {
    closed = true;
    stores.values().forEach(Store::close);
  }
}
