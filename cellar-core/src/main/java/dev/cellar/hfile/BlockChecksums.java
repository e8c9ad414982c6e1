package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.nio.ByteBuffer;

/**
 * Writes and verifies the checksums stored after each block's payload.
 *
 * <pre>
 * [header + on-disk payload: onDiskDataSizeWithHeader bytes][checksum 0][checksum 1] ...
 * checksum i (4 bytes, big-endian) covers bytes [i * bytesPerChecksum, min((i + 1) *
 * bytesPerChecksum, onDiskDataSizeWithHeader)) counted from the first byte of the header.
 * </pre>
 */
public final class BlockChecksums {

  private BlockChecksums() {}

  /**
   * Computes and stores the checksums of the first {@code dataLength} bytes of {@code block}
   * (header and payload) right after them.
   */
  public static void write(
      Buf block, int dataLength, ChecksumType type, int bytesPerChecksum) {
    if (type == ChecksumType.NULL) {
      return;
    }
    ByteBuffer view = contiguousView(block, dataLength);
    int at = dataLength;
    for (int start = 0; start < dataLength; start += bytesPerChecksum) {
      int length = Math.min(bytesPerChecksum, dataLength - start);
      block.putInt(at, type.compute(view.limit(start + length).position(start)));
      at += ChecksumType.CHECKSUM_SIZE;
    }
  }

  /**
   * Verifies every checksum of a block read from disk; {@code block} holds the whole on-disk
   * block from its header.
   *
   * @throws CorruptHFileException naming the chunk, the stored and the computed values
   */
  public static void verify(
      Buf block, BlockHeader header, String file, long offset)
      throws CorruptHFileException {
    ChecksumType type = header.checksumType();
    if (type == ChecksumType.NULL) {
      return;
    }
    int dataLength = header.onDiskDataSizeWithHeader();
    int bytesPerChecksum = header.bytesPerChecksum();
    ByteBuffer view = contiguousView(block, dataLength);
    int at = dataLength;
    int chunk = 0;
    for (int start = 0; start < dataLength; start += bytesPerChecksum, chunk++) {
      int length = Math.min(bytesPerChecksum, dataLength - start);
      int computed = type.compute(view.limit(start + length).position(start));
      int stored = block.getInt(at);
      if (computed != stored) {
        throw new CorruptHFileException(file, offset, header.type() + " block " + type
            + " checksum of chunk " + chunk + " (block bytes " + start + ".." + (start + length)
            + ")", hex(stored) + " as stored", hex(computed) + " computed");
      }
      at += ChecksumType.CHECKSUM_SIZE;
    }
  }

  /**
   * One view of the first {@code length} bytes for all the chunks: in place for a single-segment
   * block (one view object per block), a heap copy for a block that spans segments.
   */
  private static ByteBuffer contiguousView(Buf block, int length) {
    if (block.isSingleSegment()) {
      return block.segment().asSlice(0, length).asByteBuffer();
    }
    return ByteBuffer.wrap(block.getBytes(0, length));
  }

  private static String hex(int value) {
    return String.format("0x%08x", value);
  }
}
