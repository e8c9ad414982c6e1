package dev.cellar.hfile;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * ZSTD blocks: one zstd frame per chunk in Hadoop block framing, through zstd-jni, at HBase's
 * default level 3. HBase's ZSTD codec streams with a 256 KiB buffer and reserves zstd's worst-case
 * growth of it.
 */
final class ZstdCodec extends FramedBlockCodec {

  static final ZstdCodec INSTANCE = new ZstdCodec();

  /** HBase's default {@code hbase.io.compress.zstd.buffersize}. */
  private static final int BUFFER_SIZE = 256 * 1024;

  /** HBase's default {@code hbase.io.compress.zstd.level}. */
  private static final int LEVEL = 3;

  private final int maxChunkInput = (int) (2L * BUFFER_SIZE - Zstd.compressBound(BUFFER_SIZE));

  private ZstdCodec() {}

  @Override
  int maxChunkInput() {
    return maxChunkInput;
  }

  @Override
  String name() {
    return "ZSTD";
  }

  @Override
  byte[] compressChunk(byte[] src, int offset, int length) throws IOException {
    byte[] out = new byte[(int) Zstd.compressBound(length)];
    long written = Zstd.compressByteArray(out, 0, out.length, src, offset, length, LEVEL);
    if (Zstd.isError(written)) {
      throw new IOException("ZSTD compression failed: " + Zstd.getErrorName(written));
    }
    return Arrays.copyOf(out, (int) written);
  }

  @Override
  int decompressChunk(Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int maxDstLength)
      throws IOException {
    try {
      long produced;
      if (NioViews.isDirectRange(src, srcIndex, srcLength)
          && NioViews.isDirectRange(dst, dstIndex, maxDstLength)) {
        ByteBuffer in = NioViews.directView(src, srcIndex, srcLength);
        ByteBuffer out = NioViews.directView(dst, dstIndex, maxDstLength);
        produced = Zstd.decompressDirectByteBuffer(out, 0, maxDstLength, in, 0, srcLength);
      } else {
        byte[] in = src.getBytes(srcIndex, srcLength);
        byte[] out = new byte[maxDstLength];
        produced = Zstd.decompressByteArray(out, 0, maxDstLength, in, 0, srcLength);
        if (!Zstd.isError(produced)) {
          dst.putBytes(dstIndex, out, 0, (int) produced);
        }
      }
      if (Zstd.isError(produced)) {
        throw new IOException("ZSTD chunk is malformed: " + Zstd.getErrorName(produced));
      }
      return (int) produced;
    } catch (ZstdException e) {
      throw new IOException("ZSTD chunk is malformed: " + e.getMessage(), e);
    }
  }
}
