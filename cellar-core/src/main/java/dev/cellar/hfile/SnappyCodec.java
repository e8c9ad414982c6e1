package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.xerial.snappy.Snappy;

/**
 * SNAPPY blocks: raw Snappy chunks in Hadoop block framing, through snappy-java. HBase's Snappy
 * codec streams with a 256 KiB buffer and reserves Snappy's worst-case growth of it, which bounds
 * the input of one chunk.
 */
final class SnappyCodec extends FramedBlockCodec {

  static final SnappyCodec INSTANCE = new SnappyCodec();

  /** HBase's default {@code hbase.io.compress.snappy.buffersize}. */
  private static final int BUFFER_SIZE = 256 * 1024;

  private final int maxChunkInput = 2 * BUFFER_SIZE - Snappy.maxCompressedLength(BUFFER_SIZE);

  private SnappyCodec() {}

  @Override
  int maxChunkInput() {
    return maxChunkInput;
  }

  @Override
  String name() {
    return "SNAPPY";
  }

  @Override
  byte[] compressChunk(byte[] src, int offset, int length) throws IOException {
    byte[] out = new byte[Snappy.maxCompressedLength(length)];
    int written = Snappy.compress(src, offset, length, out, 0);
    return Arrays.copyOf(out, written);
  }

  @Override
  int decompressChunk(Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int maxDstLength)
      throws IOException {
    if (NioViews.isDirectRange(src, srcIndex, srcLength)
        && NioViews.isDirectRange(dst, dstIndex, maxDstLength)) {
      ByteBuffer in = NioViews.directView(src, srcIndex, srcLength);
      ByteBuffer out = NioViews.directView(dst, dstIndex, maxDstLength);
      checkLength(Snappy.uncompressedLength(in), maxDstLength);
      return Snappy.uncompress(in, out);
    }
    byte[] in = src.getBytes(srcIndex, srcLength);
    checkLength(Snappy.uncompressedLength(in), maxDstLength);
    byte[] out = Snappy.uncompress(in);
    dst.putBytes(dstIndex, out, 0, out.length);
    return out.length;
  }

  private static void checkLength(int uncompressed, int room) throws IOException {
    if (uncompressed < 0 || uncompressed > room) {
      throw new IOException(
          "SNAPPY chunk decompresses to " + uncompressed + " bytes, room for " + room);
    }
  }
}
