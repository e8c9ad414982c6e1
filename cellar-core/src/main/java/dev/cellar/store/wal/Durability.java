package dev.cellar.store.wal;

/**
 * How durable an append must be before {@link WriteAheadLog#append} returns, with HBase's names.
 */
public enum Durability {
  /** Written to the log and forced to stable storage before the append returns (the default). */
  SYNC_WAL,
  /**
   * Queued for the log; the append returns at once. The entry is written with the next batch and
   * forced within {@link WalConfig#asyncSyncIntervalMillis()}, or sooner by any other force: a
   * crash in between loses it.
   */
  ASYNC_WAL,
  /** Not written at all: the append only assigns a sequence id. A crash loses the entry. */
  SKIP_WAL,
  /**
   * As {@link #SYNC_WAL}, but the force is an fsync: on a local disk {@code fsync} rather than
   * {@code fdatasync}, on HDFS {@code hsync} (the DataNodes' disks) rather than {@code hflush}
   * (their memory).
   */
  FSYNC_WAL;

  /** Whether the entry is written to the log. */
  public boolean writes() {
    return this != SKIP_WAL;
  }

  /** Whether the append waits until its entry is forced to stable storage. */
  public boolean waitsForForce() {
    return this == SYNC_WAL || this == FSYNC_WAL;
  }
}
