package dev.cellar.schema;

/**
 * How durable a mutation is when the call that writes it returns, under HBase's names and in
 * HBase's order: after {@link #USE_DEFAULT}, each constant is stronger than the one before it.
 * Immutable and thread-safe.
 */
public enum Durability {
  /** The table's default, which in Cellar is {@link #SYNC_WAL}. */
  USE_DEFAULT,
  /** Not written to the write-ahead log: the write only takes a sequence id. A crash loses it. */
  SKIP_WAL,
  /**
   * Queued for the log; the call returns at once. The entry is written with the next batch and
   * forced within {@code hbase.regionserver.optionallogflushinterval} (a second; sooner with any
   * other force): a crash in between loses it.
   */
  ASYNC_WAL,
  /** Written to the log and forced to stable storage before the call returns. */
  SYNC_WAL,
  /**
   * As {@link #SYNC_WAL}, but the force is an fsync: on a local disk {@code fsync} rather than
   * {@code fdatasync}, on HDFS {@code hsync} (the DataNodes' disks) rather than {@code hflush}
   * (their memory).
   */
  FSYNC_WAL;

  /** This durability with {@link #USE_DEFAULT} resolved to what it means in Cellar. */
  public Durability resolved() {
    return this == USE_DEFAULT ? SYNC_WAL : this;
  }

  /** Whether the entry is written to the log. */
  public boolean writes() {
    return resolved() != SKIP_WAL;
  }

  /** Whether the write waits until its entry is forced to stable storage. */
  public boolean waitsForForce() {
    Durability resolved = resolved();
    return resolved == SYNC_WAL || resolved == FSYNC_WAL;
  }
}
