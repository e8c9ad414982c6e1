package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.io.IOException;

/**
 * A codec whose payloads use {@link BlockFraming}: parses and validates the frame and hands each
 * chunk to the algorithm. Every length read from the frame is checked against what remains of the
 * input and of the output before it is used.
 */
abstract class FramedBlockCodec implements BlockCodec {

  private static final int INT_SIZE = Integer.BYTES;

  /** The largest input one chunk compresses, as HBase's codec configures its stream. */
  abstract int maxChunkInput();

  /** Compresses one chunk with the raw block format of the algorithm. */
  abstract byte[] compressChunk(byte[] src, int offset, int length) throws IOException;

  /**
   * Decompresses one chunk of {@code srcLength} bytes into at most {@code maxDstLength} bytes.
   *
   * @return the number of bytes produced
   */
  abstract int decompressChunk(
      Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int maxDstLength)
      throws IOException;

  /** The algorithm's name, for error messages. */
  abstract String name();

  @Override
  public final byte[] compress(byte[] src, int offset, int length) throws IOException {
    return BlockFraming.frame(src, offset, length, maxChunkInput(), this::compressChunk);
  }

  @Override
  public final void decompress(
      Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int dstLength)
      throws IOException {
    int in = srcIndex;
    int inEnd = srcIndex + srcLength;
    int out = dstIndex;
    int outEnd = dstIndex + dstLength;
    while (in < inEnd) {
      int rawLength = readLength(src, in, inEnd, "uncompressed length");
      in += INT_SIZE;
      if (rawLength == 0) {
        break;
      }
      if (rawLength > outEnd - out) {
        throw new IOException(
            name()
                + " frame at input byte "
                + (in - INT_SIZE - srcIndex)
                + " claims "
                + rawLength
                + " uncompressed bytes but only "
                + (outEnd - out)
                + " remain of the expected "
                + dstLength);
      }
      int groupEnd = out + rawLength;
      while (out < groupEnd) {
        int chunkLength = readLength(src, in, inEnd, "compressed chunk length");
        in += INT_SIZE;
        if (chunkLength > inEnd - in) {
          throw new IOException(
              name()
                  + " chunk at input byte "
                  + (in - INT_SIZE - srcIndex)
                  + " claims "
                  + chunkLength
                  + " bytes but only "
                  + (inEnd - in)
                  + " remain");
        }
        int produced = decompressChunk(src, in, chunkLength, dst, out, groupEnd - out);
        if (produced <= 0 && chunkLength > 0) {
          throw new IOException(
              name() + " chunk at input byte " + (in - srcIndex) + " decompressed to nothing");
        }
        in += chunkLength;
        out += produced;
      }
    }
    if (out != outEnd) {
      throw new IOException(
          name()
              + " payload decompressed to "
              + (out - dstIndex)
              + " bytes, expected "
              + dstLength);
    }
  }

  private int readLength(Buf src, int in, int inEnd, String what) throws IOException {
    if (inEnd - in < INT_SIZE) {
      throw new IOException(
          name()
              + " frame truncated: "
              + what
              + " needs "
              + INT_SIZE
              + " bytes, "
              + (inEnd - in)
              + " remain");
    }
    int value = src.getInt(in);
    if (value < 0) {
      throw new IOException(name() + " frame has a negative " + what + ": " + value);
    }
    return value;
  }
}
