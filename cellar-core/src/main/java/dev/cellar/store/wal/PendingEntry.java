package dev.cellar.store.wal;

import dev.cellar.cell.Cell;

/**
 * An entry queued for the sync thread, which serializes it ({@link EntryEncoder}) when it writes
 * the batch holding it. The cells are the appender's, checked ({@link EntryCheck}) and referenced,
 * not copied: they must not change until the entry is written.
 *
 * @param table the table the entry was appended for
 * @param tableName the table's name in UTF-8
 * @param sequenceId the id assigned when the entry was queued
 * @param cells the entry's cells, in order
 * @param payloadLength the entry's payload length, as {@link EntryCheck#payloadLength} found it
 * @param latestTimestamp the timestamp written for cells whose timestamp is {@link
 *     dev.cellar.cell.KeyValue#LATEST_TIMESTAMP}
 */
record PendingEntry(
    String table,
    byte[] tableName,
    long sequenceId,
    Cell[] cells,
    int payloadLength,
    long latestTimestamp) {

  /** The entry's size in the file: length field, payload and checksum. */
  long size() {
    return WalLayout.entrySize(payloadLength);
  }
}
