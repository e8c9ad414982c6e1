package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 blocks: raw LZ4 block-format chunks in Hadoop block framing, through lz4-java. HBase's LZ4
 * codec streams with a 256 KiB buffer, which bounds the input of one chunk.
 */
final class Lz4Codec extends FramedBlockCodec {

  static final Lz4Codec INSTANCE = new Lz4Codec();

  /** HBase's default {@code hbase.io.compress.lz4.buffersize}. */
  private static final int BUFFER_SIZE = 256 * 1024;

  private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
  private final LZ4SafeDecompressor decompressor = LZ4Factory.fastestInstance().safeDecompressor();

  /** HBase's LZ4 codec reserves the Snappy-style overhead of its buffer: size / 6 + 32. */
  private static final int MAX_CHUNK_INPUT = BUFFER_SIZE - (BUFFER_SIZE / 6 + 32);

  private Lz4Codec() {}

  @Override
  int maxChunkInput() {
    return MAX_CHUNK_INPUT;
  }

  @Override
  String name() {
    return "LZ4";
  }

  @Override
  byte[] compressChunk(byte[] src, int offset, int length) {
    byte[] out = new byte[compressor.maxCompressedLength(length)];
    int written = compressor.compress(src, offset, length, out, 0);
    return Arrays.copyOf(out, written);
  }

  @Override
  int decompressChunk(Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int maxDstLength)
      throws IOException {
    try {
      if (NioViews.isDirectRange(src, srcIndex, srcLength)
          && NioViews.isDirectRange(dst, dstIndex, maxDstLength)) {
        ByteBuffer in = NioViews.directView(src, srcIndex, srcLength);
        ByteBuffer out = NioViews.directView(dst, dstIndex, maxDstLength);
        return decompressor.decompress(in, 0, srcLength, out, 0, maxDstLength);
      }
      byte[] in = src.getBytes(srcIndex, srcLength);
      byte[] out = new byte[maxDstLength];
      int produced = decompressor.decompress(in, 0, srcLength, out, 0, maxDstLength);
      dst.putBytes(dstIndex, out, 0, produced);
      return produced;
    } catch (LZ4Exception e) {
      throw new IOException("LZ4 chunk is malformed: " + e.getMessage(), e);
    }
  }
}
