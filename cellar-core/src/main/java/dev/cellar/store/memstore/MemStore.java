package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.StampedLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory store of one column family (HBase's {@code DefaultMemStore}): an active segment
 * that takes writes and at most one snapshot being flushed, each a skip list of cells copied into
 * its own MSLAB.
 *
 * <p><b>Life of a segment.</b> Writes go to the active segment. {@link #snapshot()} turns it into
 * the snapshot and starts a new active segment; the flusher writes the snapshot out and calls
 * {@link #clearSnapshot}, which closes it. Its memory returns to the {@link ChunkPool} once every
 * cursor that was opened over it is closed (see {@link MemStoreLAB}).
 *
 * <p><b>Concurrency.</b> A read-write lock, as HBase's store lock, here a {@link StampedLock}
 * (whose read side allocates nothing, unlike {@code ReentrantReadWriteLock}'s per-thread hold
 * counts): {@link #add} and {@link #getScanners} take the read side, so any number of writers and
 * scanner openings run together; {@link #snapshot()}, {@link #clearSnapshot} and {@link #close()}
 * take the write side, so a snapshot waits for the adds in flight and no add lands in a segment
 * after it became the snapshot, and a segment is never closed while a cursor is being opened on it.
 * No method takes the lock twice (a stamped lock is not reentrant). Cursors iterate without the
 * lock (see {@link SegmentCursor}). Sizes are read under the read lock from counters that writers
 * update concurrently.
 *
 * <p><b>Memory.</b> {@link #add} copies the cell, so the caller may reuse the cell's memory as soon
 * as it returns. Cells handed out by a cursor stay valid until that cursor is closed.
 */
public final class MemStore implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MemStore.class);

  private static final long NO_SNAPSHOT_ID = -1;

  private final ChunkPool pool;
  private final boolean mslabEnabled;
  private final int maxAllocation;
  private final StampedLock lock = new StampedLock();

  /** The segments and snapshot id below are guarded by the lock. */
  private Segment active;

  private Segment snapshot;
  private long snapshotId = NO_SNAPSHOT_ID;
  private long lastSnapshotId;
  private boolean closed;

  /** Closed because its family was deleted: reads starting late see it empty. */
  private boolean retired;

  /**
   * A memstore with {@code config}'s MSLAB settings, taking chunks from {@code pool} (which may be
   * null when the MSLAB is disabled).
   */
  public MemStore(MemStoreConfig config, ChunkPool pool) {
    this.mslabEnabled = config.mslabEnabled();
    this.pool = mslabEnabled ? Objects.requireNonNull(pool, "pool") : null;
    this.maxAllocation = config.maxAllocation();
    this.active = newSegment();
    this.snapshot = newSegment();
  }

  private Segment newSegment() {
    return new Segment(mslabEnabled ? new MemStoreLAB(pool, maxAllocation) : null);
  }

  /**
   * Adds a copy of {@code cell} with {@code sequenceId} (its MVCC write number) to the active
   * segment. A cell with the same key and sequence id as one already present replaces it.
   *
   * @throws IllegalStateException if the memstore was closed
   */
  public void add(Cell cell, long sequenceId) {
    add(cell, sequenceId, KeyValue.LATEST_TIMESTAMP);
  }

  /**
   * As {@link #add(Cell, long)}, but a timestamp of {@link KeyValue#LATEST_TIMESTAMP} becomes
   * {@code latestTimestamp} in the copy: a write's "now", resolved without rebuilding its cells.
   *
   * @throws IllegalStateException if the memstore was closed
   */
  public void add(Cell cell, long sequenceId, long latestTimestamp) {
    long stamp = lock.readLock();
    try {
      ensureOpen();
      active.add(cell, sequenceId, latestTimestamp);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** Adds copies of {@code cells}, all with {@code sequenceId} (one mutation's cells). */
  public void add(List<? extends Cell> cells, long sequenceId) {
    long stamp = lock.readLock();
    try {
      ensureOpen();
      Segment segment = active;
      for (Cell cell : cells) {
        segment.add(cell, sequenceId, KeyValue.LATEST_TIMESTAMP);
      }
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * Sets the active segment aside for flushing and starts a new one. If the previous snapshot was
   * not cleared yet (a flush failed or is still running) it is returned again, unchanged, as HBase
   * does. With an empty active segment the snapshot is empty but still gets a new id.
   */
  public MemStoreSnapshot snapshot() {
    long stamp = lock.writeLock();
    try {
      ensureOpen();
      if (!snapshot.isEmpty()) {
        LOG.warn(
            "snapshot requested while snapshot {} is not cleared; returning it again", snapshotId);
        return new MemStoreSnapshot(snapshotId, snapshot);
      }
      snapshotId = ++lastSnapshotId;
      if (!active.isEmpty()) {
        snapshot.close();
        snapshot = active;
        active = newSegment();
      }
      return new MemStoreSnapshot(snapshotId, snapshot);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /**
   * Drops the snapshot with {@code id} after the flush wrote it. Its memory returns to the pool
   * once the cursors still open over it are closed. Does nothing if no snapshot is outstanding.
   *
   * @throws IllegalStateException if another snapshot is outstanding
   */
  public void clearSnapshot(long id) {
    long stamp = lock.writeLock();
    try {
      if (snapshotId == NO_SNAPSHOT_ID) {
        return;
      }
      if (snapshotId != id) {
        throw new IllegalStateException(
            "current snapshot id is " + snapshotId + ", clearSnapshot was passed " + id);
      }
      Segment cleared = snapshot;
      snapshot = newSegment();
      snapshotId = NO_SNAPSHOT_ID;
      cleared.close();
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /**
   * Cursors over the active segment and the snapshot (those not empty, active first) that show only
   * cells with a sequence id at most {@code readPoint}; each is sorted, and the caller merges them
   * and closes every one.
   */
  public List<CellCursor> getScanners(long readPoint) {
    long stamp = lock.readLock();
    try {
      if (retired) {
        return List.of();
      }
      ensureOpen();
      List<CellCursor> cursors = new ArrayList<>(2);
      try {
        for (Segment segment : new Segment[] {active, snapshot}) {
          if (!segment.isEmpty()) {
            cursors.add(segment.cursor(readPoint));
          }
        }
      } catch (RuntimeException | Error e) {
        cursors.forEach(CellCursor::close);
        throw e;
      }
      return cursors;
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * Opens point cursors over the active segment and the snapshot (those not empty, active first)
   * showing the cells visible at {@code readPoint}, into {@code cursors} (at least two); returns
   * how many were opened. The caller closes each. Allocates nothing.
   */
  public int openPointCursors(long readPoint, PointCursor[] cursors) {
    long optimistic = lock.tryOptimisticRead();
    if (optimistic != 0
        && !closed
        && active.isEmpty()
        && snapshot.isEmpty()
        && lock.validate(optimistic)) {
      // Nothing to show, seen without a write to the lock's state (no cache line shared between
      // reader threads): a flushed snapshot is cleared only after its file joined the store, so
      // the caller, reading the file list after this, finds its cells there.
      return 0;
    }
    long stamp = lock.readLock();
    try {
      if (retired) {
        return 0;
      }
      ensureOpen();
      int opened = 0;
      if (!active.isEmpty()) {
        active.openPoint(cursors[opened++], readPoint);
      }
      if (!snapshot.isEmpty()) {
        snapshot.openPoint(cursors[opened++], readPoint);
      }
      return opened;
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** The size of the active segment and the snapshot together. */
  public MemStoreSize size() {
    long stamp = lock.readLock();
    try {
      return active.size().plus(snapshot.size());
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * The heap plus off-heap bytes of the active segment and the snapshot, as {@code
   * size().footprint()} but allocating nothing: what writers check after every write.
   */
  public long footprint() {
    long stamp = lock.readLock();
    try {
      return active.footprint() + snapshot.footprint();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** The size of the active segment. */
  public MemStoreSize activeSize() {
    long stamp = lock.readLock();
    try {
      return active.size();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** The size of the snapshot not yet cleared; empty when there is none. */
  public MemStoreSize snapshotSize() {
    long stamp = lock.readLock();
    try {
      return snapshot.size();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * True when the memstore's heap plus off-heap size, snapshot included until it is cleared, is
   * above {@code flushSize} ({@link MemStoreConfig#flushSize()}): HBase's {@code
   * HRegion.isFlushSize}. The caller decides whether and when to flush.
   */
  public boolean shouldFlush(long flushSize) {
    return size().footprint() > flushSize;
  }

  /**
   * Closes both segments: no more adds, snapshots or scanners. Memory still read by open cursors is
   * released when they close. Later calls do nothing.
   */
  @Override
  public void close() {
    close(false);
  }

  /**
   * Closes the memstore of a family the table no longer has: as {@link #close()}, except that a
   * read still starting on it (it took the family list before the family went) finds it empty
   * instead of failing.
   */
  public void retire() {
    close(true);
  }

  private void close(boolean retire) {
    long stamp = lock.writeLock();
    try {
      retired |= retire;
      if (closed) {
        return;
      }
      closed = true;
      active.close();
      snapshot.close();
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("memstore is closed");
    }
  }
}
