package dev.cellar.hfile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * The framing Hadoop's block compressor stream puts around SNAPPY, LZ4 and ZSTD block payloads,
 * which HBase's codecs use.
 *
 * <pre>
 * frame   := group+
 * group   := rawLength:int32 chunk+         chunks decompress to rawLength bytes in total
 * chunk   := compressedLength:int32 bytes[compressedLength]
 * </pre>
 *
 * All lengths are big-endian. An input no larger than the codec's maximum chunk input is written as
 * one group with one chunk; a larger input is one group whose chunks each compress at most that
 * many bytes, followed by an empty group (a raw length of zero), as the stream's final finish
 * writes it. An empty input is a lone raw length of zero.
 */
final class BlockFraming {

  /** Compresses one chunk of input with a codec's raw block compressor. */
  interface ChunkCompressor {
    byte[] compress(byte[] src, int offset, int length) throws IOException;
  }

  private BlockFraming() {}

  static byte[] frame(byte[] src, int offset, int length, int maxChunkInput, ChunkCompressor chunk)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(length / 2 + 16);
    writeInt(out, length);
    if (length == 0) {
      return out.toByteArray();
    }
    int done = 0;
    do {
      int piece = Math.min(maxChunkInput, length - done);
      byte[] compressed = chunk.compress(src, offset + done, piece);
      writeInt(out, compressed.length);
      out.write(compressed);
      done += piece;
    } while (done < length);
    if (length > maxChunkInput) {
      writeInt(out, 0);
    }
    return out.toByteArray();
  }

  private static void writeInt(ByteArrayOutputStream out, int value) {
    out.write(value >>> 24);
    out.write(value >>> 16);
    out.write(value >>> 8);
    out.write(value);
  }
}
