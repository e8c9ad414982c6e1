package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.OffHeapRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Serializes queued entries ({@link SegmentWriter} documents the layout) straight from their cells
 * into one reusable off-heap staging buffer, and appends the buffer to the segment each time it
 * fills and at the end of a batch. Owned by the sync thread: not thread-safe.
 *
 * <p><b>Memory.</b> The staging buffer is {@value #STAGING_BYTES} bytes of an {@link OffHeapRegion}
 * made once per log and freed by {@link #close()}. An entry's bytes exist nowhere else: no heap
 * array per entry, and the file write reads the off-heap buffer directly. An entry larger than the
 * buffer is written in several pieces; its CRC32C is accumulated piece by piece, so a batch of any
 * size needs no more memory.
 *
 * <p><b>Cells.</b> Each cell is read part by part (lengths, key, value, tags section) from the
 * segments it names, so a cell whose value or tags live apart from its key serializes as the same
 * contiguous KeyValue bytes as any other. A timestamp of {@link KeyValue#LATEST_TIMESTAMP} is
 * written as the entry's {@link PendingEntry#latestTimestamp()} (the time of the write), so a
 * writer never rebuilds its cells to resolve "now". {@link EntryCheck} verified every cell on the
 * appender's thread, so the copies here stay inside their segments.
 */
final class EntryEncoder implements AutoCloseable {

  /** Bytes of the staging buffer: what one file write carries at most. */
  static final int STAGING_BYTES = 1 << 20;

  /** The part of a key after its qualifier: the timestamp and the type. */
  private static final int KEY_TAIL = KeyValueLayout.TIMESTAMP_SIZE + KeyValueLayout.TYPE_SIZE;

  /** The largest field written in one piece (three lengths in front of a cell). */
  private static final int MAX_FIELD = 3 * Integer.BYTES;

  private final OffHeapRegion memory;
  private final MemorySegment staging;
  private final ByteBuffer view;
  private final ByteBuffer[] pieces;
  private final CRC32C crc = new CRC32C();
  private SegmentOutput output;

  /** Bytes staged and not yet appended. */
  private int position;

  /** Where the current entry's bytes not yet in the checksum start. */
  private int checksummedUpTo;

  private EntryEncoder(OffHeapRegion memory) {
    this.memory = memory;
    this.staging = memory.segment();
    this.view = staging.asByteBuffer();
    this.pieces = new ByteBuffer[] {view};
  }

  /** An encoder with its own staging memory, to be {@link #close()}d by its owner. */
  static EntryEncoder create() {
    return new EntryEncoder(OffHeapRegion.allocate(STAGING_BYTES));
  }

  /**
   * Serializes {@code entries} in order and appends them to {@code to}, in as few writes as the
   * staging buffer allows (one for a batch up to its size).
   *
   * @return the bytes appended
   * @throws IOException if an append fails; part of the batch may then be in the file
   */
  long write(List<PendingEntry> entries, SegmentOutput to) throws IOException {
    output = to;
    position = 0;
    long bytes = 0;
    try {
      for (PendingEntry entry : entries) {
        encode(entry);
        bytes += entry.size();
      }
      flush();
    } finally {
      output = null;
    }
    return bytes;
  }

  private void encode(PendingEntry entry) throws IOException {
    crc.reset();
    checksummedUpTo = position;
    reserve(WalLayout.TABLE_OFFSET);
    staging.set(WalLayout.INT, position + WalLayout.PAYLOAD_LENGTH_OFFSET, entry.payloadLength());
    staging.set(WalLayout.LONG, position + WalLayout.SEQUENCE_ID_OFFSET, entry.sequenceId());
    staging.set(
        WalLayout.SHORT,
        position + WalLayout.TABLE_LENGTH_OFFSET,
        (short) entry.tableName().length);
    position += WalLayout.TABLE_OFFSET;
    copy(MemorySegment.ofArray(entry.tableName()), 0, entry.tableName().length);
    reserve(WalLayout.CELL_COUNT_SIZE);
    putInt(entry.cells().length);
    for (Cell cell : entry.cells()) {
      encode(cell, entry.latestTimestamp());
    }
    checksum();
    reserve(WalLayout.CRC_SIZE);
    putInt((int) crc.getValue());
    checksummedUpTo = position;
  }

  /** Writes one cell's length field and KeyValue bytes. */
  private void encode(Cell cell, long latestTimestamp) throws IOException {
    int keyLength = cell.keyLength();
    int valueLength = cell.valueLength();
    int length = cell.length();
    reserve(MAX_FIELD);
    putInt(length);
    putInt(keyLength);
    putInt(valueLength);
    MemorySegment key = cell.segment();
    long keyOffset = cell.keyOffset();
    copy(key, keyOffset, keyLength - KEY_TAIL);
    long timestamp = KeyValueLayout.timestamp(key, keyOffset, keyLength);
    reserve(KEY_TAIL);
    staging.set(
        KeyValueLayout.LONG,
        position,
        timestamp == KeyValue.LATEST_TIMESTAMP ? latestTimestamp : timestamp);
    staging.set(
        KeyValueLayout.BYTE,
        position + KeyValueLayout.TIMESTAMP_SIZE,
        KeyValueLayout.typeByte(key, keyOffset, keyLength));
    position += KEY_TAIL;
    copy(cell.valueSegment(), cell.valueOffset(), valueLength);
    if (length > KeyValueLayout.cellLength(keyLength, valueLength, 0, false)) {
      reserve(KeyValueLayout.TAGS_LENGTH_SIZE);
      staging.set(KeyValueLayout.SHORT, position, (short) cell.tagsLength());
      position += KeyValueLayout.TAGS_LENGTH_SIZE;
      copy(cell.tagsSegment(), cell.tagsOffset(), cell.tagsLength());
    }
  }

  private void putInt(int value) {
    staging.set(WalLayout.INT, position, value);
    position += Integer.BYTES;
  }

  /** Copies {@code length} bytes, appending the staging buffer whenever it fills. */
  private void copy(MemorySegment source, long offset, int length) throws IOException {
    long from = offset;
    int left = length;
    while (left > 0) {
      if (position == STAGING_BYTES) {
        flush();
      }
      int piece = Math.min(left, STAGING_BYTES - position);
      MemorySegment.copy(source, from, staging, position, piece);
      position += piece;
      from += piece;
      left -= piece;
    }
  }

  /** Makes room for a field of {@code bytes} that is written in one piece. */
  private void reserve(int bytes) throws IOException {
    if (STAGING_BYTES - position < bytes) {
      flush();
    }
  }

  /** Adds the current entry's staged bytes not yet in its checksum. */
  private void checksum() {
    if (position > checksummedUpTo) {
      view.limit(position).position(checksummedUpTo);
      crc.update(view);
    }
    checksummedUpTo = position;
  }

  /** Appends what is staged and starts the buffer over. */
  private void flush() throws IOException {
    checksum();
    if (position > 0) {
      view.limit(position).position(0);
      output.append(pieces);
    }
    position = 0;
    checksummedUpTo = 0;
  }

  /** Frees the staging memory. */
  @Override
  public void close() {
    memory.close();
  }
}
