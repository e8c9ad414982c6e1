package dev.cellar.store.memstore;

/**
 * The segment a flush writes out, as {@link MemStore#snapshot()} set it aside (HBase's {@code
 * MemStoreSnapshot}). No cell is added to it after it was taken, so its size is final.
 *
 * <p>The flusher reads it through {@link #cursor()} and, once the file is written, calls {@link
 * MemStore#clearSnapshot} with {@link #id()}. Cursors opened here keep the snapshot's memory alive
 * until they are closed, also after the snapshot was cleared. Thread-safe.
 */
public final class MemStoreSnapshot {

  private final long id;
  private final Segment segment;
  private final MemStoreSize size;

  MemStoreSnapshot(long id, Segment segment) {
    this.id = id;
    this.segment = segment;
    this.size = segment.size();
  }

  /** The id to pass to {@link MemStore#clearSnapshot}. */
  public long id() {
    return id;
  }

  /** The snapshot's size, fixed when it was taken. */
  public MemStoreSize size() {
    return size;
  }

  /** True if the snapshot holds no cell (nothing to flush). */
  public boolean isEmpty() {
    return size.cellsCount() == 0;
  }

  /**
   * A cursor over every cell of the snapshot, whatever its sequence id; the caller closes it.
   *
   * @throws IllegalStateException if the snapshot was already cleared
   */
  public CellCursor cursor() {
    return segment.cursor(Long.MAX_VALUE);
  }
}
