package dev.cellar.store.wal;

import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.ValueLayout;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The constants of the write-ahead log's on-disk format: file names, the segment header and the
 * entry fields, as {@link SegmentWriter} documents them. Stateless and thread-safe.
 *
 * <p>Offsets of entry fields are relative to the first byte of the entry; {@code N} is the table
 * name's length and {@code P} the payload length. All integers are big-endian and unaligned, with
 * the {@link ValueLayout}s of {@link KeyValueLayout}.
 */
public final class WalLayout {

  /** Big-endian unaligned {@code short}: the table name's length. */
  public static final ValueLayout.OfShort SHORT = KeyValueLayout.SHORT;

  /** Big-endian unaligned {@code int}: magic, version, lengths, counts, checksums. */
  public static final ValueLayout.OfInt INT = KeyValueLayout.INT;

  /** Big-endian unaligned {@code long}: times and sequence ids. */
  public static final ValueLayout.OfLong LONG = KeyValueLayout.LONG;

  /** Prefix of every segment file name. */
  public static final String FILE_PREFIX = "wal-";

  /** Suffix of every segment file name. */
  public static final String FILE_SUFFIX = ".log";

  /** Digits of the zero-padded first sequence id in a segment file name, so names sort as ids. */
  public static final int FILE_ID_DIGITS = 20;

  private static final Pattern FILE_NAME =
      Pattern.compile(
          Pattern.quote(FILE_PREFIX)
              + "(\\d{"
              + FILE_ID_DIGITS
              + "})"
              + Pattern.quote(FILE_SUFFIX));

  /** The header's magic number: {@code "CWAL"} in ASCII. */
  public static final int MAGIC = 0x4357_414C;

  /** The format version this code writes and reads. */
  public static final int VERSION = 1;

  /** Offset of the magic number in the header. */
  public static final int MAGIC_OFFSET = 0;

  /** Offset of the version in the header. */
  public static final int VERSION_OFFSET = MAGIC_OFFSET + Integer.BYTES;

  /** Offset of the creation time (milliseconds since the epoch) in the header. */
  public static final int CREATION_TIME_OFFSET = VERSION_OFFSET + Integer.BYTES;

  /** Offset of the segment's first sequence id, the one in its file name, in the header. */
  public static final int FIRST_SEQUENCE_ID_OFFSET = CREATION_TIME_OFFSET + Long.BYTES;

  /** Offset of the header's CRC32C, over every header byte before it. */
  public static final int HEADER_CRC_OFFSET = FIRST_SEQUENCE_ID_OFFSET + Long.BYTES;

  /** Size of the header: the offset of the first entry. */
  public static final int HEADER_SIZE = HEADER_CRC_OFFSET + Integer.BYTES;

  /** Offset of the payload length in an entry. */
  public static final int PAYLOAD_LENGTH_OFFSET = 0;

  /** Size of the payload length field. */
  public static final int PAYLOAD_LENGTH_SIZE = Integer.BYTES;

  /** Offset of the sequence id in an entry: the first field of the payload. */
  public static final int SEQUENCE_ID_OFFSET = PAYLOAD_LENGTH_OFFSET + PAYLOAD_LENGTH_SIZE;

  /** Offset of the table name's length in an entry. */
  public static final int TABLE_LENGTH_OFFSET = SEQUENCE_ID_OFFSET + Long.BYTES;

  /** Offset of the table name (UTF-8) in an entry. */
  public static final int TABLE_OFFSET = TABLE_LENGTH_OFFSET + Short.BYTES;

  /** Largest table name in UTF-8 bytes: its length field is an unsigned short. */
  public static final int MAX_TABLE_LENGTH = 0xFFFF;

  /** Size of the cell count field. */
  public static final int CELL_COUNT_SIZE = Integer.BYTES;

  /** Size of the length field in front of every cell. */
  public static final int CELL_LENGTH_SIZE = Integer.BYTES;

  /** Size of the CRC32C that closes every entry. */
  public static final int CRC_SIZE = Integer.BYTES;

  /**
   * Smallest serialized cell: the two length fields and a key with empty row, family, qualifier.
   */
  public static final int MIN_CELL_LENGTH =
      KeyValueLayout.KEY_OFFSET + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;

  /** Smallest payload: a sequence id, a one-byte table name and one smallest cell. */
  public static final int MIN_PAYLOAD_LENGTH =
      Long.BYTES + Short.BYTES + 1 + CELL_COUNT_SIZE + CELL_LENGTH_SIZE + MIN_CELL_LENGTH;

  /** Largest entry: it is built in, and read into, one Java array. */
  public static final int MAX_ENTRY_SIZE = Integer.MAX_VALUE - 8;

  /** Largest payload: what the largest entry leaves besides its length and checksum. */
  public static final int MAX_PAYLOAD_LENGTH = MAX_ENTRY_SIZE - PAYLOAD_LENGTH_SIZE - CRC_SIZE;

  /**
   * A file beside the segments of a log that lives outside its database's directory: the URI of the
   * database it belongs to, in UTF-8, so no other database takes it for its own.
   */
  public static final String OWNER_FILE = "OWNER";

  private WalLayout() {}

  /** Returns the name of the segment file whose first sequence id is {@code firstSequenceId}. */
  public static String fileName(long firstSequenceId) {
    if (firstSequenceId < 0) {
      throw new IllegalArgumentException("sequence ids are >= 0, found " + firstSequenceId);
    }
    return FILE_PREFIX + String.format("%0" + FILE_ID_DIGITS + "d", firstSequenceId) + FILE_SUFFIX;
  }

  /** Returns the first sequence id a segment file name holds, or -1 if it names no segment. */
  public static long parseFileName(String fileName) {
    Matcher matcher = FILE_NAME.matcher(fileName);
    if (!matcher.matches()) {
      return -1;
    }
    try {
      return Long.parseLong(matcher.group(1));
    } catch (NumberFormatException tooLarge) {
      return -1;
    }
  }

  /** Returns the offset of the cell count in an entry whose table name is {@code N} bytes. */
  public static long cellCountOffset(int tableLength) {
    return TABLE_OFFSET + tableLength;
  }

  /** Returns the offset of the first cell's length field in an entry. */
  public static long firstCellOffset(int tableLength) {
    return cellCountOffset(tableLength) + CELL_COUNT_SIZE;
  }

  /** Returns the offset of an entry's CRC32C: right after its payload. */
  public static long crcOffset(int payloadLength) {
    return PAYLOAD_LENGTH_SIZE + (long) payloadLength;
  }

  /** Returns the size of a whole entry: its length field, its payload and its CRC32C. */
  public static long entrySize(int payloadLength) {
    return crcOffset(payloadLength) + CRC_SIZE;
  }
}
