package dev.cellar.store.wal;

/**
 * An entry queued for the sync thread: its bytes from {@link EntryEncoder}, which {@link
 * SegmentWriter#seal} completes with the sequence id and CRC32C just before writing them. The
 * appender hands the array over when it queues the entry and never touches it again.
 *
 * @param table the table the entry was appended for
 * @param sequenceId the id assigned when the entry was queued
 * @param bytes the entry, sequence id and CRC32C still zero until sealed
 */
record PendingEntry(String table, long sequenceId, byte[] bytes) {}
