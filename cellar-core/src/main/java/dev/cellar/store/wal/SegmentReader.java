package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.memory.Buf;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads one segment file ({@link SegmentWriter} documents the format) from its header up to a given
 * length, verifying everything on the way: the header's magic, CRC32C, version and first sequence
 * id; each entry's length, CRC32C, sequence id (above the previous one and not below the segment's
 * first) and the structure of every cell. The first thing that is wrong raises a {@link
 * CorruptWalException} naming the file and the offset of the header or entry, and the reader goes
 * no further: it never skips to a later entry. Whether that ends a torn segment or fails the read
 * is the caller's policy.
 *
 * <p><b>Memory.</b> The file is read through a heap window of at least 64 KiB, grown to the largest
 * entry. A refill allocates a new array and an array is never written after it was filled, so the
 * cells handed out, views into the window, stay valid while they are reachable (see {@link
 * WalEntry}). Not thread-safe.
 */
final class SegmentReader implements AutoCloseable {

  /** Smallest read window: one read covers many small entries. */
  private static final int MIN_WINDOW = 64 * 1024;

  private final Path path;
  private final ReadOnlyFile file;
  private final long limit;
  private final CRC32C crc = new CRC32C();
  private byte[] window = new byte[0];
  private MemorySegment windowSegment = MemorySegment.ofArray(window);
  private long windowStart;
  private int windowFill;
  private long position;
  private long lastSequenceId;

  private SegmentReader(Path path, ReadOnlyFile file, long limit, long firstSequenceId)
      throws IOException {
    this.path = path;
    this.file = file;
    this.limit = limit;
    readHeader(firstSequenceId);
    this.position = WalLayout.HEADER_SIZE;
    this.lastSequenceId = firstSequenceId - 1;
  }

  /**
   * Opens a whole segment and verifies its header.
   *
   * @param firstSequenceId the first sequence id the file's name gives, which the header must hold
   * @throws CorruptWalException if the header is short or wrong
   * @throws IOException naming the file if it cannot be read
   */
  static SegmentReader open(Storage storage, Path path, long firstSequenceId) throws IOException {
    ReadOnlyFile file = storage.openRead(path);
    return open(path, file, file.size(), firstSequenceId);
  }

  /**
   * Opens the first {@code length} bytes of a segment (the durable part of one being written) and
   * verifies its header.
   *
   * @throws CorruptWalException if the header is short or wrong
   * @throws IOException naming the file if it cannot be read
   */
  static SegmentReader openPrefix(Storage storage, Path path, long firstSequenceId, long length)
      throws IOException {
    return open(path, storage.openRead(path), length, firstSequenceId);
  }

  private static SegmentReader open(Path path, ReadOnlyFile file, long limit, long firstSequenceId)
      throws IOException {
    try {
      return new SegmentReader(path, file, limit, firstSequenceId);
    } catch (IOException | RuntimeException e) {
      try {
        file.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  private void readHeader(long expectedFirstSequenceId) throws IOException {
    if (limit < WalLayout.HEADER_SIZE) {
      throw corrupt(
          0, "segment header", WalLayout.HEADER_SIZE + " bytes", "a file of " + limit + " bytes");
    }
    fill(0, WalLayout.HEADER_SIZE);
    int magic = windowSegment.get(WalLayout.INT, WalLayout.MAGIC_OFFSET);
    if (magic != WalLayout.MAGIC) {
      throw corrupt(0, "segment magic", hex(WalLayout.MAGIC), hex(magic));
    }
    crc.reset();
    crc.update(window, 0, WalLayout.HEADER_CRC_OFFSET);
    int computed = (int) crc.getValue();
    int stored = windowSegment.get(WalLayout.INT, WalLayout.HEADER_CRC_OFFSET);
    if (stored != computed) {
      throw corrupt(0, "header CRC32C", hex(stored) + " (stored)", hex(computed) + " (computed)");
    }
    int version = windowSegment.get(WalLayout.INT, WalLayout.VERSION_OFFSET);
    if (version != WalLayout.VERSION) {
      throw corrupt(0, "format version", WalLayout.VERSION, version);
    }
    long firstSequenceId = windowSegment.get(WalLayout.LONG, WalLayout.FIRST_SEQUENCE_ID_OFFSET);
    if (firstSequenceId != expectedFirstSequenceId) {
      throw corrupt(
          0, "first sequence id", expectedFirstSequenceId + " (the file name's)", firstSequenceId);
    }
  }

  /**
   * Returns the next entry, or {@code null} once the reader reached its length exactly.
   *
   * @throws CorruptWalException naming the entry's offset if it is incomplete or wrong in any way
   */
  WalEntry next() throws IOException {
    if (position == limit) {
      return null;
    }
    long remaining = limit - position;
    if (remaining < WalLayout.PAYLOAD_LENGTH_SIZE) {
      throw corrupt(
          position,
          "entry length field",
          WalLayout.PAYLOAD_LENGTH_SIZE + " bytes",
          remaining + " bytes before the end at " + limit);
    }
    fill(position, WalLayout.PAYLOAD_LENGTH_SIZE);
    int payloadLength = windowSegment.get(WalLayout.INT, windowIndex(position));
    if (payloadLength < WalLayout.MIN_PAYLOAD_LENGTH
        || payloadLength > WalLayout.MAX_PAYLOAD_LENGTH) {
      throw corrupt(
          position,
          "entry payload length",
          WalLayout.MIN_PAYLOAD_LENGTH + " to " + WalLayout.MAX_PAYLOAD_LENGTH,
          payloadLength);
    }
    long size = WalLayout.entrySize(payloadLength);
    if (size > remaining) {
      throw corrupt(
          position, "entry size", "at most the " + remaining + " bytes left", size + " bytes");
    }
    fill(position, size);
    int base = windowIndex(position);
    int crcIndex = base + (int) WalLayout.crcOffset(payloadLength);
    crc.reset();
    crc.update(window, base, crcIndex - base);
    int computed = (int) crc.getValue();
    int stored = windowSegment.get(WalLayout.INT, crcIndex);
    if (stored != computed) {
      throw corrupt(
          position, "entry CRC32C", hex(stored) + " (stored)", hex(computed) + " (computed)");
    }
    WalEntry entry = decode(base, crcIndex);
    position += size;
    lastSequenceId = entry.sequenceId();
    return entry;
  }

  /** Decodes the payload of the checksummed entry at window index {@code base}. */
  private WalEntry decode(int base, int end) throws CorruptWalException {
    long sequenceId = windowSegment.get(WalLayout.LONG, base + WalLayout.SEQUENCE_ID_OFFSET);
    if (sequenceId <= lastSequenceId) {
      throw corrupt(position, "sequence id", "more than " + lastSequenceId, sequenceId);
    }
    int tableLength =
        Short.toUnsignedInt(
            windowSegment.get(WalLayout.SHORT, base + WalLayout.TABLE_LENGTH_OFFSET));
    long cellsStart = base + WalLayout.firstCellOffset(tableLength);
    if (tableLength == 0 || cellsStart > end) {
      throw corrupt(
          position,
          "table name length",
          "1 to " + (end - base - WalLayout.TABLE_OFFSET - WalLayout.CELL_COUNT_SIZE),
          tableLength);
    }
    String table =
        new String(window, base + WalLayout.TABLE_OFFSET, tableLength, StandardCharsets.UTF_8);
    int cellCount = windowSegment.get(WalLayout.INT, base + WalLayout.cellCountOffset(tableLength));
    if (cellCount < 1) {
      throw corrupt(position, "cell count", "at least 1", cellCount);
    }
    List<Cell> cells = new ArrayList<>(Math.min(cellCount, 1024));
    long at = cellsStart;
    for (int i = 0; i < cellCount; i++) {
      cells.add(decodeCell(at, end, i, sequenceId));
      at += WalLayout.CELL_LENGTH_SIZE + cells.getLast().length();
    }
    if (at != end) {
      throw corrupt(
          position,
          "end of the cells",
          "payload end at entry offset " + (end - base),
          "entry offset " + (at - base));
    }
    return new WalEntry(table, sequenceId, cells);
  }

  private Cell decodeCell(long at, int end, int index, long sequenceId) throws CorruptWalException {
    long room = end - at - WalLayout.CELL_LENGTH_SIZE;
    if (room < WalLayout.MIN_CELL_LENGTH) {
      throw corrupt(
          position,
          "cell " + index,
          "at least " + WalLayout.MIN_CELL_LENGTH + " bytes before the payload end",
          room + " bytes");
    }
    int length = windowSegment.get(WalLayout.INT, at);
    if (length < WalLayout.MIN_CELL_LENGTH || length > room) {
      throw corrupt(
          position, "length of cell " + index, WalLayout.MIN_CELL_LENGTH + " to " + room, length);
    }
    long start = at + WalLayout.CELL_LENGTH_SIZE;
    long withoutTags =
        KeyValueLayout.cellLength(
            KeyValueLayout.keyLength(windowSegment, start),
            KeyValueLayout.valueLength(windowSegment, start),
            0,
            false);
    try {
      return new KeyValueCell(windowSegment, start, length, length != withoutTags, sequenceId);
    } catch (IllegalArgumentException e) {
      throw corrupt(position, "cell " + index, "a well-formed KeyValue", e.getMessage());
    }
  }

  /** Offset of the end of the last entry read: where the next one starts. */
  long position() {
    return position;
  }

  /** Sequence id of the last entry read, or the segment's first id minus one before any. */
  long lastSequenceId() {
    return lastSequenceId;
  }

  Path path() {
    return path;
  }

  private int windowIndex(long fileOffset) {
    return (int) (fileOffset - windowStart);
  }

  /** Makes the window hold file bytes {@code [from, from + length)}, which lie within the limit. */
  private void fill(long from, long length) throws IOException {
    long windowEnd = windowStart + windowFill;
    if (from >= windowStart && from + length <= windowEnd) {
      return;
    }
    int kept = from >= windowStart && from < windowEnd ? (int) (windowEnd - from) : 0;
    int capacity = (int) Math.min(Math.max(MIN_WINDOW, length), limit - from);
    byte[] next = new byte[capacity];
    if (kept > 0) {
      System.arraycopy(window, windowIndex(from), next, 0, kept);
    }
    int read;
    try {
      read = file.read(from + kept, Buf.wrap(next), kept, capacity - kept);
    } catch (IOException e) {
      throw new IOException(
          "WAL segment " + path + ": reading at offset " + (from + kept) + " failed: " + e, e);
    }
    if (kept + read < length) {
      throw corrupt(
          from, "file length", "at least " + limit + " bytes", (from + kept + read) + " bytes");
    }
    window = next;
    windowSegment = MemorySegment.ofArray(next);
    windowStart = from;
    windowFill = kept + read;
  }

  private CorruptWalException corrupt(long offset, String what, Object expected, Object found) {
    return new CorruptWalException(path, file.describe(), offset, what, expected, found);
  }

  private static String hex(int value) {
    return String.format("0x%08x", value);
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
