package dev.cellar.hfile;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.memory.Buf;
import dev.cellar.schema.Compression;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * Appends blocks to an HFile: compresses the payload, fills in the {@link BlockHeader} and appends
 * the checksums (layout in {@link BlockHeader} and {@link BlockChecksums}).
 *
 * <pre>
 * block := header(33) compressed-payload checksums
 * compressed-payload := codec(payload), or payload itself with NONE compression
 * checksums := 4 bytes per bytesPerChecksum chunk of header and compressed payload; all zeros
 *              with checksum type NULL, as HBase writes them
 * </pre>
 *
 * The previous-block offset of each block is the offset of the last block of the same type written
 * before it, or -1. Not thread-safe: one file writer owns it.
 */
public final class BlockWriter {

  private final AppendOnlyFile out;
  private final Compression compression;
  private final ChecksumType checksumType;
  private final int bytesPerChecksum;
  private final Map<BlockType, Long> lastOffsetByType = new EnumMap<>(BlockType.class);
  private long uncompressedBytesWithHeaders;

  public BlockWriter(
      AppendOnlyFile out,
      Compression compression,
      ChecksumType checksumType,
      int bytesPerChecksum) {
    if (!compression.isSupported()) {
      throw new IllegalArgumentException("compression " + compression + " is not supported");
    }
    if (bytesPerChecksum <= 0) {
      throw new IllegalArgumentException("bytesPerChecksum must be > 0, was " + bytesPerChecksum);
    }
    this.out = out;
    this.compression = compression;
    this.checksumType = checksumType;
    this.bytesPerChecksum = bytesPerChecksum;
  }

  /** Header plus uncompressed payload bytes of every block written so far. */
  public long uncompressedBytesWithHeaders() {
    return uncompressedBytesWithHeaders;
  }

  /** The offset the next block will be written at. */
  public long position() {
    return out.position();
  }

  /**
   * Writes a block of {@code type} whose uncompressed payload is {@code length} bytes of {@code
   * payload} from 0.
   *
   * @return where the block landed and its sizes
   */
  public WrittenBlock write(BlockType type, byte[] payload, int length) throws IOException {
    byte[] onDiskPayload =
        compression == Compression.NONE
            ? payload
            : BlockCodecs.of(compression).compress(payload, 0, length);
    int onDiskPayloadLength = compression == Compression.NONE ? length : onDiskPayload.length;
    int dataSize = BlockHeader.SIZE + onDiskPayloadLength;
    int checksums = ChecksumType.areaBytes(dataSize, bytesPerChecksum);
    long offset = out.position();
    BlockHeader header =
        new BlockHeader(
            type,
            onDiskPayloadLength + checksums,
            length,
            lastOffsetByType.getOrDefault(type, -1L),
            checksumType,
            bytesPerChecksum,
            dataSize);
    byte[] block = new byte[dataSize + checksums];
    Buf view = Buf.wrap(block);
    header.write(view, 0);
    view.putBytes(BlockHeader.SIZE, onDiskPayload, 0, onDiskPayloadLength);
    BlockChecksums.write(view, dataSize, checksumType, bytesPerChecksum);
    out.append(block, 0, block.length);
    lastOffsetByType.put(type, offset);
    uncompressedBytesWithHeaders += BlockHeader.SIZE + length;
    return new WrittenBlock(type, offset, block.length, length);
  }

  /**
   * A block as written.
   *
   * @param type its type
   * @param offset its file offset
   * @param onDiskSizeWithHeader its size on disk with header and checksums
   * @param uncompressedPayloadSize its payload size before compression
   */
  public record WrittenBlock(
      BlockType type, long offset, int onDiskSizeWithHeader, int uncompressedPayloadSize) {}
}
