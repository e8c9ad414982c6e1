package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLock;
import dev.cellar.metrics.HistogramSnapshot;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * A write-ahead log: a directory of segment files ({@link SegmentWriter} documents the format)
 * holding entries of cells, each with a sequence id, written before the cells reach a memstore so
 * that they survive a crash. Thread-safe: any number of threads append concurrently.
 *
 * <pre>
 *  appender threads                CommitQueue                       cellar-wal-sync
 *  appendNoSync: check, size --> id assigned, queued in id order --> take all queued as one batch,
 *                                                                    encode it into off-heap
 *                                                                    staging, one write
 *  sync(id) returns          <-- durable watermark moves  <--------- one force (fdatasync)
 *                                                                    roll at the size limit
 * </pre>
 *
 * <p><b>Concurrency.</b> An appender checks its cells and sizes the entry on its own thread, then
 * takes the next sequence id and queues the entry under the {@link CommitQueue} lock, so ids are
 * monotonic and entries reach the file in id order. Appending and waiting are separate steps
 * ({@link #appendNoSync}, {@link #sync}), so a writer can queue its entry while it holds its own
 * locks and wait for the force after releasing them. A single thread ({@link WalSyncer}, named
 * {@value WalSyncer#THREAD_NAME}) owns the segment file: it serializes everything queued as one
 * batch, writes it, forces once, and wakes all the batch's waiting appenders together (group
 * commit). {@link #markFlushed} deletes files under the write half of a read-write lock whose read
 * half {@link #replay} holds, so a replay never loses a file under its feet; appends never take
 * that lock.
 *
 * <p><b>Durability.</b> {@link Durability#SYNC_WAL} entries are forced with {@code fdatasync} (on
 * HDFS, {@code hflush}) and {@code FSYNC_WAL} ones with {@code fsync} (on HDFS, {@code hsync})
 * before {@link #sync} (or {@link #append}) returns for them; {@link Durability#ASYNC_WAL} entries
 * are forced within {@link WalConfig#asyncSyncIntervalMillis()}; {@link Durability#SKIP_WAL} writes
 * nothing. After a failed write or force the log fails for good: entries not yet acknowledged, and
 * every later append, fail with an {@link IOException} naming the file, because a failed {@code
 * fsync} can lose pages that a retried one would not report. Reopen the log to recover.
 *
 * <p><b>Recovery.</b> Opening scans every segment ({@link WalRecovery}): segments before the last
 * must be intact or the open fails with a {@link CorruptWalException}; the last one is cut at its
 * first torn or corrupt entry, which is logged. New entries always go to a new segment. Sequence
 * ids continue above the highest recovered one. One log per directory: opening holds the
 * directory's lock ({@link Storage#lock}) until {@link #close()}, so a second open, in this process
 * or another, fails at once instead of recovering under a live writer. Every file operation goes
 * through the log's {@link Storage}: the local disk, HDFS, or a test's fault-injecting wrapper.
 *
 * <p><b>Memory.</b> An append copies nothing: the queue references the caller's cells (which must
 * not change until they are written) and the sync thread serializes them into one reusable off-heap
 * staging buffer ({@link EntryEncoder}) that the file write reads directly. Replay reads through
 * heap windows and hands out views into them (see {@link WalEntry}).
 */
public final class WriteAheadLog implements AutoCloseable {

  private static final Cell[] NO_CELLS = new Cell[0];

  private final Storage storage;
  private final Path directory;
  private final CommitQueue queue;
  private final SegmentCatalog catalog;
  private final Thread syncThread;
  private final StorageLock lock;
  private final ReentrantReadWriteLock deletionLock = new ReentrantReadWriteLock();
  private final Map<String, byte[]> tableNames = new ConcurrentHashMap<>();

  private WriteAheadLog(
      Storage storage,
      Path directory,
      CommitQueue queue,
      SegmentCatalog catalog,
      Thread syncThread,
      StorageLock lock) {
    this.storage = storage;
    this.directory = directory;
    this.lock = lock;
    this.queue = queue;
    this.catalog = catalog;
    this.syncThread = syncThread;
  }

  /**
   * Opens the log in {@code directory}, creating the directory if needed, recovering what earlier
   * runs wrote (see the class comment) and starting a new segment for new entries.
   *
   * @throws CorruptWalException if a segment before the last is damaged, or the last one's header
   * @throws dev.cellar.io.DirectoryLockedException if another open holds the directory
   * @throws IOException naming the file, if reading, cutting or creating a segment fails
   */
  public static WriteAheadLog open(Path directory, WalConfig config) throws IOException {
    return open(Storage.local(), directory, config);
  }

  /** Opens the log in {@code directory} of {@code storage}; see {@link #open(Path, WalConfig)}. */
  public static WriteAheadLog open(Storage storage, Path directory, WalConfig config)
      throws IOException {
    return open(storage, directory, config, RecoveryBounds.UNKNOWN);
  }

  /**
   * Opens the log in {@code directory} of {@code storage}, deciding about damage by what the
   * tables' files say ({@code bounds}; see {@link WalRecovery}).
   */
  public static WriteAheadLog open(
      Storage storage, Path directory, WalConfig config, RecoveryBounds bounds) throws IOException {
    return open(storage, directory, config, AppendOnlyFileOutput.on(storage), bounds);
  }

  /** Opens the log writing its segments through {@code outputs}: the seam for fault injection. */
  static WriteAheadLog open(Path directory, WalConfig config, SegmentOutput.Factory outputs)
      throws IOException {
    return open(Storage.local(), directory, config, outputs, RecoveryBounds.UNKNOWN);
  }

  private static WriteAheadLog open(
      Storage storage,
      Path directory,
      WalConfig config,
      SegmentOutput.Factory outputs,
      RecoveryBounds bounds)
      throws IOException {
    if (storage == null || directory == null || config == null) {
      throw new IllegalArgumentException(
          "storage, directory and config are required, found "
              + storage
              + ", "
              + directory
              + " and "
              + config);
    }
    if (!storage.isDirectory(directory)) {
      storage.createDirectories(directory);
      Path parent = directory.toAbsolutePath().getParent();
      if (parent != null) {
        storage.syncDirectory(parent);
      }
    }
    StorageLock lock = storage.lock(directory);
    try {
      WalRecovery.Recovered recovered = WalRecovery.recover(storage, directory, bounds);
      SegmentCatalog catalog = new SegmentCatalog(recovered.segments());
      CommitQueue queue = new CommitQueue(directory, recovered.nextSequenceId());
      WalSyncer syncer =
          WalSyncer.create(
              storage,
              lock,
              directory,
              config,
              outputs,
              queue,
              catalog,
              recovered.nextSequenceId());
      Thread thread = Thread.ofPlatform().name(WalSyncer.THREAD_NAME).daemon().start(syncer);
      return new WriteAheadLog(storage, directory, queue, catalog, thread, lock);
    } catch (IOException | RuntimeException e) {
      try {
        lock.close();
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  /** Appends with {@link Durability#SYNC_WAL}; see {@link #append(String, List, Durability)}. */
  public long append(String table, List<? extends Cell> cells) throws IOException {
    return append(table, cells, Durability.SYNC_WAL);
  }

  /**
   * Appends one entry holding {@code cells} for {@code table} and returns its sequence id, which is
   * higher than every id assigned before, in this run or an earlier one. Returns when the entry is
   * as durable as {@code durability} asks: {@link #appendNoSync} then, for the durabilities that
   * wait, {@link #sync}. The cells must not change until it returns, or for {@link
   * Durability#ASYNC_WAL} until the entry is written (see {@link #appendNoSync}).
   *
   * @throws IllegalArgumentException as {@link #appendNoSync} does
   * @throws IOException naming the file, if the log failed before the entry was durable
   * @throws IllegalStateException if the log is closed
   */
  public long append(String table, List<? extends Cell> cells, Durability durability)
      throws IOException {
    long sequenceId = appendNoSync(table, cells, KeyValue.LATEST_TIMESTAMP, durability);
    if (durability.waitsForForce()) {
      sync(sequenceId);
    }
    return sequenceId;
  }

  /**
   * Queues one entry holding {@code cells} for {@code table} and returns its sequence id at once,
   * without waiting for the entry to be written or forced: pass the id to {@link #sync} to wait.
   * The id is higher than every id assigned before, in this run or an earlier one. A {@link
   * Durability#SYNC_WAL} or {@code FSYNC_WAL} entry makes the sync thread force its batch; an
   * {@link Durability#ASYNC_WAL} one is forced within the interval; a {@link Durability#SKIP_WAL}
   * one is not written and only takes an id.
   *
   * <p>The log keeps the cells, not a copy, until the sync thread has written them: they must not
   * change meanwhile ({@link KeyValue}s never do). Cells whose timestamp is {@link
   * KeyValue#LATEST_TIMESTAMP} are written with {@code latestTimestamp} instead (the time of the
   * write, as HBase resolves it), so the caller need not rebuild them.
   *
   * @throws IllegalArgumentException if the table is null, empty or longer than {@value
   *     WalLayout#MAX_TABLE_LENGTH} UTF-8 bytes, the list is null or empty, a cell is null, has
   *     inconsistent lengths or names bytes outside its segments, or the durability is null
   * @throws IOException if the log failed earlier
   * @throws IllegalStateException if the log is closed
   */
  public long appendNoSync(
      String table, List<? extends Cell> cells, long latestTimestamp, Durability durability)
      throws IOException {
    if (durability == null) {
      throw new IllegalArgumentException("durability is null");
    }
    byte[] tableName = tableName(table);
    int payloadLength = EntryCheck.payloadLength(tableName, table, cells);
    if (!durability.writes()) {
      return queue.assignUnwritten();
    }
    return queue.enqueue(
        table,
        tableName,
        cells.toArray(NO_CELLS),
        payloadLength,
        latestTimestamp,
        durability.waitsForForce(),
        durability == Durability.FSYNC_WAL);
  }

  /** The table's checked UTF-8 name, encoded once per table and kept. */
  private byte[] tableName(String table) {
    byte[] name = table == null ? null : tableNames.get(table);
    if (name == null) {
      name = EntryCheck.tableName(table);
      tableNames.putIfAbsent(table, name);
    }
    return name;
  }

  /**
   * Waits until the entry {@code sequenceId} (and every entry before it) is on stable storage. The
   * entry must have been appended with a durability that writes it: a {@link Durability#SKIP_WAL}
   * id becomes durable only when a later entry does.
   *
   * @throws IOException naming the file, if the log failed before forcing the entry
   * @throws java.io.InterruptedIOException if interrupted while waiting; the entry may still be
   *     forced
   */
  public void sync(long sequenceId) throws IOException {
    queue.awaitDurable(sequenceId);
  }

  /**
   * Closes the segment being written, after forcing it, and starts a new one; returns when done.
   * Does nothing if the segment has no entries yet.
   *
   * @throws IOException if the log failed
   * @throws IllegalStateException if the log is closed
   */
  public void roll() throws IOException {
    queue.roll();
  }

  /**
   * Records that every entry of {@code table} up to {@code sequenceId} is in store files, then
   * deletes each closed segment whose every entry is flushed: for each table with entries in the
   * segment, the highest flushed id is at least that table's highest id there. The segment being
   * written is never deleted; it can go after a later roll and flush.
   *
   * @return the deleted segment files
   * @throws IllegalArgumentException if the table is invalid or the id was never assigned
   * @throws IOException naming the file, if a deletion fails
   */
  public List<Path> markFlushed(String table, long sequenceId) throws IOException {
    EntryCheck.tableName(table);
    long lastAssigned = queue.lastAssignedSequenceId();
    if (sequenceId < 0 || sequenceId > lastAssigned) {
      throw new IllegalArgumentException(
          "flushed sequence id "
              + sequenceId
              + " of table '"
              + table
              + "' was never assigned: ids so far run up to "
              + lastAssigned);
    }
    deletionLock.writeLock().lock();
    try {
      List<Path> deleted = new ArrayList<>();
      for (Segment segment : catalog.markFlushed(table, sequenceId)) {
        try {
          storage.deleteIfExists(segment.path());
        } catch (IOException e) {
          throw new IOException(
              "deleting flushed WAL segment " + segment.path() + " failed: " + e, e);
        }
        deleted.add(segment.path());
      }
      if (!deleted.isEmpty()) {
        try {
          storage.syncDirectory(directory);
        } catch (IOException e) {
          throw new IOException(
              "WAL "
                  + directory
                  + ": syncing the directory after deleting "
                  + deleted
                  + " failed: "
                  + e,
              e);
        }
      }
      return deleted;
    } finally {
      deletionLock.writeLock().unlock();
    }
  }

  /**
   * Hands every durable entry with a sequence id above {@code fromSequenceIdExclusive} to {@code
   * consumer}, in id order: what was durable when the call started. Used to rebuild memstores after
   * {@link #open}; the cells are views, see {@link WalEntry}. The consumer must not call {@link
   * #markFlushed}, which waits for replays to finish.
   *
   * @throws CorruptWalException naming file and offset, if a segment is damaged
   * @throws IOException naming the file, if reading fails
   */
  public void replay(long fromSequenceIdExclusive, Consumer<? super WalEntry> consumer)
      throws IOException {
    if (consumer == null) {
      throw new IllegalArgumentException("consumer is null");
    }
    deletionLock.readLock().lock();
    try {
      List<SegmentCatalog.ReadableSegment> segments = catalog.readableSegments();
      for (int i = 0; i < segments.size(); i++) {
        SegmentCatalog.ReadableSegment segment = segments.get(i);
        boolean allAtOrBelowFrom =
            i + 1 < segments.size()
                && segments.get(i + 1).firstSequenceId() - 1 <= fromSequenceIdExclusive;
        if (!allAtOrBelowFrom) {
          replay(segment, fromSequenceIdExclusive, consumer);
        }
      }
    } finally {
      deletionLock.readLock().unlock();
    }
  }

  private void replay(
      SegmentCatalog.ReadableSegment segment,
      long fromExclusive,
      Consumer<? super WalEntry> consumer)
      throws IOException {
    try (SegmentReader reader =
        SegmentReader.openPrefix(
            storage, segment.path(), segment.firstSequenceId(), segment.length())) {
      for (WalEntry entry = reader.next(); entry != null; entry = reader.next()) {
        if (entry.sequenceId() > fromExclusive) {
          consumer.accept(entry);
        }
      }
    }
  }

  /** The log's directory. */
  public Path directory() {
    return directory;
  }

  /** The highest sequence id whose entry, like every written entry before it, is durable. */
  public long durableSequenceId() {
    return queue.durableSequenceId();
  }

  /** The highest sequence id assigned so far, written or not. */
  public long lastSequenceId() {
    return queue.lastAssignedSequenceId();
  }

  /** The live segment files, oldest first; the last is being written. */
  public List<Path> segments() {
    return catalog.paths();
  }

  /** Counters since the log was opened. */
  public WalStats stats() {
    return queue.stats();
  }

  /** The durations of the log's forces to stable storage so far (HBase's WAL SyncTime). */
  public HistogramSnapshot forceTimes() {
    return queue.forceTimes().snapshot();
  }

  /**
   * Writes and forces what is queued, closes the segment, stops the sync thread and releases the
   * directory. Later appends throw {@link IllegalStateException}. Idempotent.
   *
   * @throws IOException if the log failed, now or earlier: entries after {@link
   *     #durableSequenceId()} may be lost
   */
  @Override
  public void close() throws IOException {
    queue.close();
    boolean interrupted = false;
    while (syncThread.isAlive()) {
      try {
        syncThread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    lock.close();
    IOException failure = queue.failure();
    if (failure != null) {
      throw new IOException(
          "WAL "
              + directory
              + " failed; entries after sequence id "
              + queue.durableSequenceId()
              + " may be lost: "
              + failure.getMessage(),
          failure);
    }
  }

  @Override
  public String toString() {
    return "WriteAheadLog["
        + directory
        + ", last id "
        + lastSequenceId()
        + ", durable "
        + durableSequenceId()
        + "]";
  }
}
