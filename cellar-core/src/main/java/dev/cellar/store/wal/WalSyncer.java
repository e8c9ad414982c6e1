package dev.cellar.store.wal;

import dev.cellar.io.Storage;
import dev.cellar.io.StorageLock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes a log ({@value #THREAD_NAME}). It owns the segment being written;
 * nothing else touches it.
 *
 * <p><b>Group commit.</b> Each turn takes everything queued as one batch, serializes it into its
 * off-heap staging buffer ({@link EntryEncoder}) and writes it, forces once if anything asks for
 * it, then publishes the new durable watermark, which releases every appender of the batch
 * together. While it writes and forces, new appends queue up and form the next batch, so batches
 * grow with the load by themselves: no timer, no batch size to tune, and a lone appender pays
 * exactly one force.
 *
 * <p><b>When it forces.</b> A batch is forced if an entry in it waits for durability ({@link
 * Durability#SYNC_WAL}, {@link Durability#FSYNC_WAL}), before a roll, at close, and when written
 * bytes have waited {@link WalConfig#asyncSyncIntervalMillis()} since the last force: {@link
 * Durability#ASYNC_WAL} entries are forced at most that long after they are written, and no more
 * often than that unless some other force covers them.
 *
 * <p><b>Rolls.</b> After a batch, a segment that reached {@link WalConfig#rollSize()}, or any roll
 * asked for through {@link WriteAheadLog#roll()}, is forced, closed, and replaced by a new segment
 * named by the lowest id still to be written. A segment without entries is not rolled. Each new
 * segment is created before the directory's hold is checked ({@link StorageLock#checkHeld}) and
 * before any entry goes into it: a writer whose hold was taken over (a paused HDFS writer whose
 * lease another opener recovered) fails there and deletes the empty segment, and every segment it
 * could still write to was listed, and its lease recovered, by the new writer.
 *
 * <p><b>Failure.</b> Any exception fails the log for good ({@link CommitQueue#fail}) and ends the
 * thread after closing the segment: entries not yet forced are never acknowledged. The staging
 * memory is freed when the thread ends, whichever way.
 */
final class WalSyncer implements Runnable {

  /** The name of the sync thread. */
  static final String THREAD_NAME = "cellar-wal-sync";

  private static final Logger LOG = LoggerFactory.getLogger(WalSyncer.class);

  private final Storage storage;
  private final StorageLock lock;
  private final Path directory;
  private final WalConfig config;
  private final SegmentOutput.Factory outputs;
  private final CommitQueue queue;
  private final SegmentCatalog catalog;
  private final long intervalNanos;
  private final EntryEncoder encoder;
  private SegmentWriter writer;
  private Segment segment;
  private long lastWrittenId;
  private long lastForceNanos;

  private WalSyncer(
      Storage storage,
      StorageLock lock,
      Path directory,
      WalConfig config,
      SegmentOutput.Factory outputs,
      CommitQueue queue,
      SegmentCatalog catalog,
      long lastWrittenId,
      EntryEncoder encoder) {
    this.storage = storage;
    this.lock = lock;
    this.directory = directory;
    this.encoder = encoder;
    this.config = config;
    this.outputs = outputs;
    this.queue = queue;
    this.catalog = catalog;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(config.asyncSyncIntervalMillis());
    this.lastWrittenId = lastWrittenId;
  }

  /**
   * Creates the first segment, named {@code firstSequenceId}, on the calling thread, so that a log
   * that cannot write fails to open; {@link #run} then serves the queue.
   */
  static WalSyncer create(
      Storage storage,
      StorageLock lock,
      Path directory,
      WalConfig config,
      SegmentOutput.Factory outputs,
      CommitQueue queue,
      SegmentCatalog catalog,
      long firstSequenceId)
      throws IOException {
    EntryEncoder encoder = EntryEncoder.create();
    WalSyncer syncer =
        new WalSyncer(
            storage,
            lock,
            directory,
            config,
            outputs,
            queue,
            catalog,
            firstSequenceId - 1,
            encoder);
    try {
      syncer.startSegment(firstSequenceId);
    } catch (IOException | RuntimeException e) {
      encoder.close();
      throw e;
    }
    syncer.lastForceNanos = System.nanoTime();
    return syncer;
  }

  @Override
  public void run() {
    try {
      serve();
      writer.close();
    } catch (IOException e) {
      stop(e, e);
    } catch (InterruptedException e) {
      InterruptedIOException interrupted =
          new InterruptedIOException("WAL " + directory + ": the sync thread was interrupted");
      interrupted.initCause(e);
      stop(interrupted, e);
    } catch (RuntimeException | Error e) {
      stop(new IOException("WAL " + directory + ": the sync thread failed: " + e, e), e);
      throw e;
    } finally {
      encoder.close();
    }
  }

  private void stop(IOException failure, Throwable cause) {
    LOG.error(
        "WAL {}: failed; no entry after sequence id {} is acknowledged",
        directory,
        queue.durableSequenceId(),
        cause);
    queue.fail(failure);
    writer.closeAfterFailure(failure);
  }

  private void serve() throws IOException, InterruptedException {
    long rollsDone = 0;
    while (true) {
      long timeout =
          writer.hasUnforcedBytes()
              ? Math.max(0, lastForceNanos + intervalNanos - System.nanoTime())
              : -1;
      CommitQueue.Batch batch = queue.take(timeout);
      List<PendingEntry> entries = batch.entries();
      long bytes = write(entries);
      boolean rollDue =
          !batch.closing()
              && (batch.rollsRequested() > rollsDone || writer.position() >= config.rollSize());
      boolean forceDue =
          batch.forceRequested()
              || rollDue
              || batch.closing()
              || System.nanoTime() - lastForceNanos >= intervalNanos;
      boolean forced = forceDue && writer.hasUnforcedBytes();
      if (forced) {
        long forceStart = System.nanoTime();
        writer.force(batch.fsyncRequested());
        lastForceNanos = System.nanoTime();
        queue.forceTimes().record(lastForceNanos - forceStart);
        catalog.recordDurable(segment, writer.forcedLength());
      }
      queue.published(entries.size(), bytes, forced, lastWrittenId);
      entries.clear();
      boolean rolled = rollDue && roll();
      rollsDone = batch.rollsRequested();
      queue.rollsCompleted(rollsDone, rolled);
      if (batch.closing()) {
        return;
      }
    }
  }

  /** Writes a batch to the current segment; returns its size in bytes. */
  private long write(List<PendingEntry> entries) throws IOException {
    if (entries.isEmpty()) {
      return 0;
    }
    long before = writer.position();
    writer.write(entries, encoder);
    catalog.recordWritten(segment, entries);
    lastWrittenId = entries.getLast().sequenceId();
    return writer.position() - before;
  }

  /** Closes the forced segment and starts the next one, unless it has no entries. */
  private boolean roll() throws IOException {
    if (!writer.hasEntries()) {
      return false;
    }
    writer.close();
    startSegment(queue.lowestUnwrittenId());
    return true;
  }

  private void startSegment(long firstSequenceId) throws IOException {
    SegmentWriter created =
        SegmentWriter.create(
            storage, directory, firstSequenceId, System.currentTimeMillis(), outputs);
    try {
      lock.checkHeld();
    } catch (IOException e) {
      created.closeAfterFailure(e);
      try {
        storage.deleteIfExists(created.path());
      } catch (IOException deleting) {
        e.addSuppressed(deleting);
      }
      throw e;
    }
    writer = created;
    segment = new Segment(writer.path(), firstSequenceId, writer.forcedLength());
    catalog.add(segment);
  }
}
