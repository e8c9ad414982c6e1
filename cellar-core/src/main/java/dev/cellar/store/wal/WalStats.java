package dev.cellar.store.wal;

/**
 * Counters of a write-ahead log since it was opened: a consistent snapshot.
 *
 * @param entriesWritten entries written to segment files (every durability but {@link
 *     Durability#SKIP_WAL})
 * @param bytesWritten bytes of those entries
 * @param batches batches the sync thread wrote, each with one gathering write
 * @param forces forces of a segment file to stable storage
 * @param rolls segments closed to start a new one
 */
public record WalStats(
    long entriesWritten, long bytesWritten, long batches, long forces, long rolls) {

  /** Entries made durable per force: how well group commit batches concurrent appends. */
  public double entriesPerForce() {
    return forces == 0 ? 0 : (double) entriesWritten / forces;
  }
}
