package dev.cellar.store.wal;

import dev.cellar.io.Storage;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Writes one segment file of the write-ahead log: its header when it is created, then batches of
 * entries serialized by the sync thread's {@link EntryEncoder} (one write per batch up to its
 * staging buffer's size), and a force when asked. Used by the sync thread only: not thread-safe.
 *
 * <h2>Format (version 1)</h2>
 *
 * <p>A log is a directory of segment files named {@code wal-<first sequence id>.log}, the id
 * zero-padded to 20 digits so that names sort as ids ({@code wal-00000000000000000001.log}). A
 * segment's first sequence id is the lowest id it may hold; every entry in it has a larger or equal
 * id, and every entry of the next segment a larger one. All integers are big-endian.
 *
 * <pre>
 *  segment:  header | entry | entry | ...            (no trailer: a segment ends where its file does)
 *
 *  header, 28 bytes:
 *  0         4          8                  16                 24            28
 *  +---------+----------+------------------+------------------+-------------+
 *  | magic   | version  | creation time    | first sequence id| CRC32C of   |
 *  | "CWAL"  | int32 = 1| int64, ms epoch  | int64, = name's  | bytes 0..24 |
 *  +---------+----------+------------------+------------------+-------------+
 *
 *  entry (N = table name length, C = cell count, P = payload length):
 *  0          4             12          14          14+N        18+N                 4+P       8+P
 *  +----------+-------------+-----------+-----------+-----------+--------------------+---------+
 *  | payload  | sequence id | table     | table     | cell      | C cells, each:     | CRC32C  |
 *  | length P | int64       | length N  | name      | count C   | length L (int32),  | of bytes|
 *  | int32    |             | u16, >= 1 | UTF-8     | int32 >= 1| L KeyValue bytes   | 0..4+P  |
 *  +----------+-------------+-----------+-----------+-----------+--------------------+---------+
 *             |&lt;------------------------- payload: P bytes -----------------------&gt;|
 * </pre>
 *
 * <p>Each cell is a KeyValue exactly as {@code dev.cellar.cell.KeyValueLayout} lays it out ({@code
 * keyLength | valueLength | key | value}, then {@code tagsLength | tags} when the cell has a tags
 * section, which its length L tells apart); its sequence id is not stored, it is the entry's. The
 * CRC32C covers the length field and the payload, so a torn or flipped byte anywhere in an entry
 * fails it. Constants for every field are in {@link WalLayout}; the reader is {@link
 * SegmentReader}.
 *
 * <h2>Durability</h2>
 *
 * <p>{@link #create} writes the header, forces the file and then its directory, so that a segment
 * that exists after a crash has a durable header. Entries are written without forcing; {@link
 * #force} forces them with {@code fdatasync} ({@code FileChannel.force(false)}), which also makes
 * the file's new length durable. Every I/O failure is rethrown naming the file.
 */
final class SegmentWriter implements AutoCloseable {

  private final Path path;
  private final long firstSequenceId;
  private final SegmentOutput output;
  private final CRC32C crc = new CRC32C();
  private long position;
  private long forcedLength;
  private long entryCount;

  private SegmentWriter(Path path, long firstSequenceId, SegmentOutput output) {
    this.path = path;
    this.firstSequenceId = firstSequenceId;
    this.output = output;
  }

  /**
   * Creates the segment whose first sequence id is {@code firstSequenceId} in {@code directory} and
   * makes its header durable.
   *
   * @throws IOException naming the file if it exists already or cannot be written and forced
   */
  static SegmentWriter create(
      Storage storage,
      Path directory,
      long firstSequenceId,
      long creationTimeMillis,
      SegmentOutput.Factory outputs)
      throws IOException {
    Path path = directory.resolve(WalLayout.fileName(firstSequenceId));
    SegmentOutput output;
    try {
      output = outputs.create(path);
    } catch (IOException e) {
      throw failure(path, "creating the segment", e);
    }
    SegmentWriter writer = new SegmentWriter(path, firstSequenceId, output);
    try {
      writer.writeHeader(creationTimeMillis);
      output.syncData();
      writer.forcedLength = writer.position;
      storage.syncDirectory(directory);
    } catch (IOException e) {
      writer.closeAfterFailure(e);
      try {
        storage.deleteIfExists(path);
      } catch (IOException deleting) {
        e.addSuppressed(deleting);
      }
      throw failure(path, "creating the segment", e);
    }
    return writer;
  }

  private void writeHeader(long creationTimeMillis) throws IOException {
    byte[] header = new byte[WalLayout.HEADER_SIZE];
    MemorySegment out = MemorySegment.ofArray(header);
    out.set(WalLayout.INT, WalLayout.MAGIC_OFFSET, WalLayout.MAGIC);
    out.set(WalLayout.INT, WalLayout.VERSION_OFFSET, WalLayout.VERSION);
    out.set(WalLayout.LONG, WalLayout.CREATION_TIME_OFFSET, creationTimeMillis);
    out.set(WalLayout.LONG, WalLayout.FIRST_SEQUENCE_ID_OFFSET, firstSequenceId);
    crc.reset();
    crc.update(header, 0, WalLayout.HEADER_CRC_OFFSET);
    out.set(WalLayout.INT, WalLayout.HEADER_CRC_OFFSET, (int) crc.getValue());
    output.append(new ByteBuffer[] {ByteBuffer.wrap(header)});
    position = header.length;
  }

  /**
   * Serializes {@code entries} through {@code encoder} and appends them, with one write per staging
   * buffer's worth. They are durable only after the next {@link #force}.
   *
   * @throws IOException naming the file and the offset of the batch
   */
  void write(List<PendingEntry> entries, EntryEncoder encoder) throws IOException {
    try {
      position += encoder.write(entries, output);
    } catch (IOException e) {
      throw failure(path, "writing " + entries.size() + " entries at offset " + position, e);
    }
    entryCount += entries.size();
  }

  /**
   * Forces everything written to stable storage: with {@code fsync} as {@link SegmentOutput#sync},
   * otherwise as {@link SegmentOutput#syncData}.
   *
   * @throws IOException naming the file; the bytes since the last successful force must then be
   *     taken as lost, whatever a later force reports
   */
  void force(boolean fsync) throws IOException {
    try {
      if (fsync) {
        output.sync();
      } else {
        output.syncData();
      }
    } catch (IOException e) {
      throw failure(path, "forcing " + (position - forcedLength) + " bytes to disk", e);
    }
    forcedLength = position;
  }

  Path path() {
    return path;
  }

  long firstSequenceId() {
    return firstSequenceId;
  }

  /** Bytes written so far, header included. */
  long position() {
    return position;
  }

  /** Bytes known to be on stable storage: the position at the last successful force. */
  long forcedLength() {
    return forcedLength;
  }

  boolean hasUnforcedBytes() {
    return position > forcedLength;
  }

  boolean hasEntries() {
    return entryCount > 0;
  }

  /** Closes the file; call {@link #force} first to make the last entries durable. */
  @Override
  public void close() throws IOException {
    try {
      output.close();
    } catch (IOException e) {
      throw failure(path, "closing the segment", e);
    }
  }

  /** Closes the file after {@code failure}, recording a failure to close on it. */
  void closeAfterFailure(Throwable failure) {
    try {
      output.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  private static IOException failure(Path path, String what, IOException cause) {
    return new IOException("WAL segment " + path + ": " + what + " failed: " + cause, cause);
  }
}
