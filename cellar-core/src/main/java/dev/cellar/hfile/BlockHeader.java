package dev.cellar.hfile;

import dev.cellar.memory.Buf;

/**
 * The 33-byte header at the start of every HFile v3 block, and its on-disk layout.
 *
 * <pre>
 * offset size field
 *  0      8   magic                          BlockType magic, ASCII
 *  8      4   onDiskSizeWithoutHeader        compressed payload + checksums
 * 12      4   uncompressedSizeWithoutHeader  payload after decompression, no checksums
 * 16      8   prevBlockOffset                previous block of the same type, -1 if none
 * 24      1   checksumType                   ChecksumType code (0 NULL, 1 CRC32, 2 CRC32C)
 * 25      4   bytesPerChecksum               bytes covered by one checksum value
 * 29      4   onDiskDataSizeWithHeader       header + compressed payload, no checksums
 * 33          (payload, then one 4-byte checksum per bytesPerChecksum chunk of header+payload)
 * </pre>
 *
 * All multi-byte fields are big-endian. A block read from disk or from the cache always starts with
 * this header.
 *
 * <p>The checksum area is {@code 4 * ceil(onDiskDataSizeWithHeader / bytesPerChecksum)} bytes for
 * every checksum type, as HBase's writer sizes it: a NULL block keeps the room, zero-filled, and
 * HBase's reader, for a block without compression, refuses a NULL block without it. A reader also
 * takes a NULL block with no area at all, which is what a {@code bytesPerChecksum} of 0 means and
 * what Cellar wrote for NULL before it followed HBase here.
 *
 * @param type the block's type
 * @param onDiskSizeWithoutHeader bytes after the header on disk (payload and checksums)
 * @param uncompressedSizeWithoutHeader payload bytes once decompressed
 * @param prevBlockOffset file offset of the previous block of the same type, or -1
 * @param checksumType the checksum algorithm
 * @param bytesPerChecksum chunk size of the checksums
 * @param onDiskDataSizeWithHeader header plus on-disk payload, excluding checksums
 */
public record BlockHeader(
    BlockType type,
    int onDiskSizeWithoutHeader,
    int uncompressedSizeWithoutHeader,
    long prevBlockOffset,
    ChecksumType checksumType,
    int bytesPerChecksum,
    int onDiskDataSizeWithHeader) {

  public static final int MAGIC_OFFSET = 0;
  public static final int ON_DISK_SIZE_OFFSET = 8;
  public static final int UNCOMPRESSED_SIZE_OFFSET = 12;
  public static final int PREV_BLOCK_OFFSET_OFFSET = 16;
  public static final int CHECKSUM_TYPE_OFFSET = 24;
  public static final int BYTES_PER_CHECKSUM_OFFSET = 25;
  public static final int ON_DISK_DATA_SIZE_OFFSET = 29;

  /** Size of the header with checksum fields (every block HFile v3 writes). */
  public static final int SIZE = 33;

  /** The whole block on disk: header, payload and checksums. */
  public int onDiskSizeWithHeader() {
    return SIZE + onDiskSizeWithoutHeader;
  }

  /** Bytes of checksums stored after the payload. */
  public int checksumBytes() {
    return onDiskSizeWithHeader() - onDiskDataSizeWithHeader;
  }

  /** Writes this header at {@code index} of {@code buf}. */
  public void write(Buf buf, int index) {
    type.writeMagic(buf, index + MAGIC_OFFSET);
    buf.putInt(index + ON_DISK_SIZE_OFFSET, onDiskSizeWithoutHeader);
    buf.putInt(index + UNCOMPRESSED_SIZE_OFFSET, uncompressedSizeWithoutHeader);
    buf.putLong(index + PREV_BLOCK_OFFSET_OFFSET, prevBlockOffset);
    buf.putByte(index + CHECKSUM_TYPE_OFFSET, checksumType.code());
    buf.putInt(index + BYTES_PER_CHECKSUM_OFFSET, bytesPerChecksum);
    buf.putInt(index + ON_DISK_DATA_SIZE_OFFSET, onDiskDataSizeWithHeader);
  }

  /**
   * Reads and validates the header at {@code index} of {@code buf}, which came from file offset
   * {@code fileOffset} of {@code file}.
   *
   * @throws CorruptHFileException for an unknown magic or checksum type, or sizes that cannot
   *     belong to a well-formed block
   */
  public static BlockHeader read(Buf buf, int index, String file, long fileOffset)
      throws CorruptHFileException {
    return of(buf, index, check(buf, index, file, fileOffset));
  }

  /**
   * The header at {@code index} of {@code buf}, already {@linkplain #check checked} to be of type
   * {@code type}.
   */
  static BlockHeader of(Buf buf, int index, BlockType type) {
    return new BlockHeader(
        type,
        buf.getInt(index + ON_DISK_SIZE_OFFSET),
        buf.getInt(index + UNCOMPRESSED_SIZE_OFFSET),
        buf.getLong(index + PREV_BLOCK_OFFSET_OFFSET),
        ChecksumType.fromCode(buf.getByte(index + CHECKSUM_TYPE_OFFSET)),
        buf.getInt(index + BYTES_PER_CHECKSUM_OFFSET),
        buf.getInt(index + ON_DISK_DATA_SIZE_OFFSET));
  }

  /** The on-disk size with header of the (checked) header at {@code index} of {@code buf}. */
  static int onDiskSizeWithHeader(Buf buf, int index) {
    return SIZE + buf.getInt(index + ON_DISK_SIZE_OFFSET);
  }

  /** The uncompressed payload size of the (checked) header at {@code index} of {@code buf}. */
  static int uncompressedSizeWithoutHeader(Buf buf, int index) {
    return buf.getInt(index + UNCOMPRESSED_SIZE_OFFSET);
  }

  /** The on-disk data size with header of the (checked) header at {@code index} of {@code buf}. */
  static int onDiskDataSizeWithHeader(Buf buf, int index) {
    return buf.getInt(index + ON_DISK_DATA_SIZE_OFFSET);
  }

  /**
   * Validates the header at {@code index} of {@code buf} as {@link #read} does, without making a
   * record of it (the block read path reads the few fields it needs from the buffer); returns the
   * block's type.
   *
   * @throws CorruptHFileException as {@link #read}
   */
  static BlockType check(Buf buf, int index, String file, long fileOffset)
      throws CorruptHFileException {
    BlockType type = BlockType.fromMagic(buf, index + MAGIC_OFFSET);
    if (type == null) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          "bad block magic",
          "one of the block magics",
          BlockType.describeMagic(buf, index + MAGIC_OFFSET));
    }
    int onDiskSize = buf.getInt(index + ON_DISK_SIZE_OFFSET);
    int uncompressedSize = buf.getInt(index + UNCOMPRESSED_SIZE_OFFSET);
    long prevBlockOffset = buf.getLong(index + PREV_BLOCK_OFFSET_OFFSET);
    byte checksumCode = buf.getByte(index + CHECKSUM_TYPE_OFFSET);
    ChecksumType checksumType = ChecksumType.fromCode(checksumCode);
    if (checksumType == null) {
      throw new CorruptHFileException(
          file, fileOffset, type + " block checksum type", "0, 1 or 2", checksumCode);
    }
    int bytesPerChecksum = buf.getInt(index + BYTES_PER_CHECKSUM_OFFSET);
    int onDiskDataSize = buf.getInt(index + ON_DISK_DATA_SIZE_OFFSET);
    if (onDiskSize < 0 || onDiskSize > Integer.MAX_VALUE - SIZE) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          type + " block onDiskSizeWithoutHeader",
          "0 .. " + (Integer.MAX_VALUE - SIZE),
          onDiskSize);
    }
    if (uncompressedSize < 0) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          type + " block uncompressedSizeWithoutHeader",
          ">= 0",
          uncompressedSize);
    }
    if (prevBlockOffset < -1) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          type + " block prevBlockOffset",
          "-1 or a file offset",
          prevBlockOffset);
    }
    boolean checked = checksumType != ChecksumType.NULL;
    if (checked ? bytesPerChecksum <= 0 : bytesPerChecksum < 0) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          type + " block bytesPerChecksum",
          checked ? "> 0" : ">= 0",
          bytesPerChecksum);
    }
    if (onDiskDataSize < SIZE || onDiskDataSize > SIZE + onDiskSize) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          type + " block onDiskDataSizeWithHeader",
          SIZE + " .. " + (SIZE + onDiskSize),
          onDiskDataSize);
    }
    int expectedArea = ChecksumType.areaBytes(onDiskDataSize, bytesPerChecksum);
    int area = SIZE + onDiskSize - onDiskDataSize;
    if (area != expectedArea && (checked || area != 0)) {
      throw new CorruptHFileException(
          file,
          fileOffset,
          type + " block checksum area size",
          expectedArea
              + " bytes for "
              + onDiskDataSize
              + " bytes in chunks of "
              + bytesPerChecksum
              + (checked ? "" : " (or 0, checksum type NULL)"),
          area);
    }
    return type;
  }
}
