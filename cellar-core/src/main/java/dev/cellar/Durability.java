package dev.cellar;

/** How durable a mutation is when the call returns, as HBase's Durability. */
public enum Durability {
  /** The table's default: SYNC_WAL. */
  USE_DEFAULT,
  /** Not written to the write-ahead log; lost on a crash before the next flush. */
  SKIP_WAL,
  /** Written to the log, which is synced in the background (within a second). */
  ASYNC_WAL,
  /** Written to the log and synced before the call returns. */
  SYNC_WAL,
  /**
   * As SYNC_WAL, but the log is forced with an fsync: {@code fsync} rather than {@code fdatasync}
   * on a local disk, {@code hsync} (the DataNodes' disks) rather than {@code hflush} (their memory)
   * on HDFS.
   */
  FSYNC_WAL
}
