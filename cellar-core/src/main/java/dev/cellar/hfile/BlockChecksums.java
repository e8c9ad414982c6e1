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
 *
 * With checksum type NULL the area keeps its size (see {@link BlockHeader}) but holds no values:
 * nothing is written into it, which leaves the zeros of a fresh block. Its payload goes unchecked,
 * but its area must still be zeros: one flipped bit turns a CRC32 or CRC32C type code into NULL,
 * and the checksum values left behind are what gives such a block away.
 */
public final class BlockChecksums {

  private BlockChecksums() {}

  /**
   * Computes and stores the checksums of the first {@code dataLength} bytes of {@code block}
   * (header and payload) right after them; with type NULL, leaves the area untouched.
   */
  public static void write(Buf block, int dataLength, ChecksumType type, int bytesPerChecksum) {
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
   * Verifies every checksum of a block read from disk, or that a NULL block's area is zeros; {@code
   * block} holds the whole on-disk block from its header.
   *
   * @throws CorruptHFileException naming the chunk, the stored and the computed values
   */
  public static void verify(Buf block, BlockHeader header, String file, long offset)
      throws CorruptHFileException {
    verify(
        block,
        header.type(),
        header.checksumType(),
        header.bytesPerChecksum(),
        header.onDiskDataSizeWithHeader(),
        header.onDiskSizeWithHeader(),
        file,
        offset);
  }

  /**
   * As {@link #verify(Buf, BlockHeader, String, long)}, the header's fields read from the block's
   * start, which {@link BlockHeader#check} passed as a header of type {@code type}.
   */
  static void verifyChecked(Buf block, BlockType type, String file, long offset)
      throws CorruptHFileException {
    verify(
        block,
        type,
        ChecksumType.fromCode(block.getByte(BlockHeader.CHECKSUM_TYPE_OFFSET)),
        block.getInt(BlockHeader.BYTES_PER_CHECKSUM_OFFSET),
        BlockHeader.onDiskDataSizeWithHeader(block, 0),
        BlockHeader.onDiskSizeWithHeader(block, 0),
        file,
        offset);
  }

  private static void verify(
      Buf block,
      BlockType blockType,
      ChecksumType type,
      int bytesPerChecksum,
      int dataLength,
      int onDiskSize,
      String file,
      long offset)
      throws CorruptHFileException {
    if (type == ChecksumType.NULL) {
      verifyEmptyArea(block, blockType, dataLength, onDiskSize, file, offset);
      return;
    }
    byte[] array =
        block.isSingleSegment() && block.segment().heapBase().orElse(null) instanceof byte[] heap
            ? heap
            : null;
    int arrayStart = array != null ? (int) block.segment().address() : 0;
    ByteBuffer view = array == null ? contiguousView(block, dataLength) : null;
    int at = dataLength;
    int chunk = 0;
    for (int start = 0; start < dataLength; start += bytesPerChecksum, chunk++) {
      int length = Math.min(bytesPerChecksum, dataLength - start);
      int computed =
          array != null
              ? type.compute(array, arrayStart + start, length)
              : type.compute(view.limit(start + length).position(start));
      int stored = block.getInt(at);
      if (computed != stored) {
        throw new CorruptHFileException(
            file,
            offset,
            blockType
                + " block "
                + type
                + " checksum of chunk "
                + chunk
                + " (block bytes "
                + start
                + ".."
                + (start + length)
                + ")",
            hex(stored) + " as stored",
            hex(computed) + " computed");
      }
      at += ChecksumType.CHECKSUM_SIZE;
    }
  }

  private static void verifyEmptyArea(
      Buf block, BlockType blockType, int start, int end, String file, long offset)
      throws CorruptHFileException {
    for (int at = start; at < end; at += ChecksumType.CHECKSUM_SIZE) {
      int value = block.getInt(at);
      if (value != 0) {
        throw new CorruptHFileException(
            file,
            offset,
            blockType
                + " block with checksum type"
                + " NULL, checksum slot "
                + (at - start) / ChecksumType.CHECKSUM_SIZE,
            "zeros",
            hex(value));
      }
    }
  }

  /**
   * One view of at least the first {@code length} bytes for all the chunks of an off-heap block: in
   * place for a single-segment block (the chunks set its bounds): the pool's own view of a block
   * read into a whole pooled buffer (the reader is its sole holder), else one view object per
   * block; a heap copy for a block that spans segments. A block in one heap array is summed in it
   * directly, with no view.
   */
  private static ByteBuffer contiguousView(Buf block, int length) {
    ByteBuffer pooled = block.soleHolderView();
    if (pooled != null) {
      return pooled;
    }
    if (block.isSingleSegment()) {
      return block.segment().asByteBuffer();
    }
    return ByteBuffer.wrap(block.getBytes(0, length));
  }

  private static String hex(int value) {
    return String.format("0x%08x", value);
  }
}
