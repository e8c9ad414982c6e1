package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.io.DurableFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * A write-ahead log: a directory of segment files ({@link SegmentWriter} documents the format)
 * holding entries of cells, each with a sequence id, written before the cells reach a memstore so
 * that they survive a crash. Thread-safe: any number of threads append concurrently.
 *
 * <pre>
 *  appender threads                    CommitQueue                  cellar-wal-sync
 *  encode cells -> heap entry --> id assigned, queued in id order --> take all queued as one batch
 *                                                                     one gathering write
 *  SYNC_WAL waiters return   <--  durable watermark moves  <--------- one force (fdatasync)
 *                                                                     roll at the size limit
 * </pre>
 *
 * <p><b>Concurrency.</b> An appender encodes its cells into a heap array on its own thread, then
 * takes the next sequence id and queues the entry under the {@link CommitQueue} lock, so ids are
 * monotonic and entries reach the file in id order. A single thread ({@link WalSyncer}, named
 * {@value WalSyncer#THREAD_NAME}) owns the segment file: it writes everything queued as one
 * batch, forces once, and wakes all the batch's waiting appenders together (group commit). {@link
 * #markFlushed} deletes files under the write half of a read-write lock whose read half {@link
 * #replay} holds, so a replay never loses a file under its feet; appends never take that lock.
 *
 * <p><b>Durability.</b> {@link Durability#SYNC_WAL} (and {@code FSYNC_WAL}) returns after the
 * entry was forced with {@code fdatasync}; {@link Durability#ASYNC_WAL} returns once queued and is
 * forced within {@link WalConfig#asyncSyncIntervalMillis()}; {@link Durability#SKIP_WAL} writes
 * nothing. After a failed write or force the log fails for good: entries not yet acknowledged, and
 * every later append, fail with an {@link IOException} naming the file, because a failed {@code
 * fsync} can lose pages that a retried one would not report. Reopen the log to recover.
 *
 * <p><b>Recovery.</b> Opening scans every segment ({@link WalRecovery}): segments before the last
 * must be intact or the open fails with a {@link CorruptWalException}; the last one is cut at its
 * first torn or corrupt entry, which is logged. New entries always go to a new segment. Sequence
 * ids continue above the highest recovered one. One log per directory: nothing stops a second
 * process from opening the same directory, and two writers would corrupt it.
 *
 * <p><b>Memory.</b> Each written entry is one heap array, from encoding until the sync thread has
 * written it. Cells are copied from whatever memory holds them (off-heap included) while {@link
 * #append} runs; the caller may reuse that memory when it returns. Replay reads through heap
 * windows and hands out views into them (see {@link WalEntry}).
 */
public final class WriteAheadLog implements AutoCloseable {

  private final Path directory;
  private final CommitQueue queue;
  private final SegmentCatalog catalog;
  private final Thread syncThread;
  private final ReentrantReadWriteLock deletionLock = new ReentrantReadWriteLock();

  private WriteAheadLog(Path directory, CommitQueue queue, SegmentCatalog catalog,
      Thread syncThread) {
    this.directory = directory;
    this.queue = queue;
    this.catalog = catalog;
    this.syncThread = syncThread;
  }

  /**
   * Opens the log in {@code directory}, creating the directory if needed, recovering what earlier
   * runs wrote (see the class comment) and starting a new segment for new entries.
   *
   * @throws CorruptWalException if a segment before the last is damaged, or the last one's header
   * @throws IOException naming the file, if reading, cutting or creating a segment fails
   */
  public static WriteAheadLog open(Path directory, WalConfig config) throws IOException {
    return open(directory, config, AppendOnlyFileOutput::create);
  }

  /** Opens the log writing its segments through {@code outputs}: the seam for fault injection. */
  static WriteAheadLog open(Path directory, WalConfig config, SegmentOutput.Factory outputs)
      throws IOException {
    if (directory == null || config == null) {
      throw new IllegalArgumentException("directory and config are required, found "
          + directory + " and " + config);
    }
    Files.createDirectories(directory);
    WalRecovery.Recovered recovered = WalRecovery.recover(directory);
    SegmentCatalog catalog = new SegmentCatalog(recovered.segments());
    CommitQueue queue = new CommitQueue(directory, recovered.nextSequenceId());
    WalSyncer syncer = WalSyncer.create(directory, config, outputs, queue, catalog,
        recovered.nextSequenceId());
    Thread thread = Thread.ofPlatform().name(WalSyncer.THREAD_NAME).daemon().start(syncer);
    return new WriteAheadLog(directory, queue, catalog, thread);
  }

  /** Appends with {@link Durability#SYNC_WAL}; see {@link #append(String, List, Durability)}. */
  public long append(String table, List<? extends Cell> cells) throws IOException {
    return append(table, cells, Durability.SYNC_WAL);
  }

  /**
   * Appends one entry holding {@code cells} for {@code table} and returns its sequence id, which
   * is higher than every id assigned before, in this run or an earlier one. Returns when the entry
   * is as durable as {@code durability} asks.
   *
   * @throws IllegalArgumentException if the table is null, empty or longer than {@value
   *     WalLayout#MAX_TABLE_LENGTH} UTF-8 bytes, the list is null or empty, a cell is null or has
   *     inconsistent lengths, or the durability is null
   * @throws IOException naming the file, if the log failed before the entry was durable
   * @throws IllegalStateException if the log is closed
   */
  public long append(String table, List<? extends Cell> cells, Durability durability)
      throws IOException {
    if (durability == null) {
      throw new IllegalArgumentException("durability is null");
    }
    if (!durability.writes()) {
      EntryEncoder.validate(table, cells);
      return queue.assignUnwritten();
    }
    byte[] entry = EntryEncoder.encode(table, cells);
    long sequenceId = queue.enqueue(table, entry, durability.waitsForForce());
    if (durability.waitsForForce()) {
      queue.awaitDurable(sequenceId);
    }
    return sequenceId;
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
    EntryEncoder.tableName(table);
    long lastAssigned = queue.lastAssignedSequenceId();
    if (sequenceId < 0 || sequenceId > lastAssigned) {
      throw new IllegalArgumentException("flushed sequence id " + sequenceId + " of table '"
          + table + "' was never assigned: ids so far run up to " + lastAssigned);
    }
    deletionLock.writeLock().lock();
    try {
      List<Path> deleted = new ArrayList<>();
      for (Segment segment : catalog.markFlushed(table, sequenceId)) {
        try {
          Files.delete(segment.path());
        } catch (IOException e) {
          throw new IOException("deleting flushed WAL segment " + segment.path() + " failed: "
              + e, e);
        }
        deleted.add(segment.path());
      }
      if (!deleted.isEmpty()) {
        try {
          DurableFiles.syncDirectory(directory);
        } catch (IOException e) {
          throw new IOException("WAL " + directory + ": syncing the directory after deleting "
              + deleted + " failed: " + e, e);
        }
      }
      return deleted;
    } finally {
      deletionLock.writeLock().unlock();
    }
  }

  /**
   * Hands every durable entry with a sequence id above {@code fromSequenceIdExclusive} to {@code
   * consumer}, in id order: what was durable when the call started. Used to rebuild memstores
   * after {@link #open}; the cells are views, see {@link WalEntry}. The consumer must not call
   * {@link #markFlushed}, which waits for replays to finish.
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
        boolean allAtOrBelowFrom = i + 1 < segments.size()
            && segments.get(i + 1).firstSequenceId() - 1 <= fromSequenceIdExclusive;
        if (!allAtOrBelowFrom) {
          replay(segment, fromSequenceIdExclusive, consumer);
        }
      }
    } finally {
      deletionLock.readLock().unlock();
    }
  }

  private static void replay(SegmentCatalog.ReadableSegment segment, long fromExclusive,
      Consumer<? super WalEntry> consumer) throws IOException {
    try (SegmentReader reader =
        SegmentReader.openPrefix(segment.path(), segment.firstSequenceId(), segment.length())) {
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

  /**
   * Writes and forces what is queued, closes the segment and stops the sync thread. Later appends
   * throw {@link IllegalStateException}. Idempotent.
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
    IOException failure = queue.failure();
    if (failure != null) {
      throw new IOException("WAL " + directory + " failed; entries after sequence id "
          + queue.durableSequenceId() + " may be lost: " + failure.getMessage(), failure);
    }
  }

  @Override
  public String toString() {
    return "WriteAheadLog[" + directory + ", last id " + lastSequenceId() + ", durable "
        + durableSequenceId() + "]";
  }
}
