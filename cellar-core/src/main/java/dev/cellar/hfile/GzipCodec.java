package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;

/**
 * GZ blocks: a plain gzip stream (RFC 1952 header, deflate data, CRC-32 and size trailer), not
 * block-framed. Reading accepts every optional header field and concatenated members, inflates
 * straight between the buffers' memory, and checks each member's CRC-32 and length.
 *
 * <pre>
 * member := 1F 8B 08 flags:1 mtime:4 xfl:1 os:1 [extra] [name\0] [comment\0] [hcrc:2]
 *           deflate-data crc32:4(LE) isize:4(LE)
 * </pre>
 */
final class GzipCodec implements BlockCodec {

  static final GzipCodec INSTANCE = new GzipCodec();

  private static final int FIXED_HEADER = 10;
  private static final int TRAILER = 8;
  private static final int FLAG_HCRC = 0x02;
  private static final int FLAG_EXTRA = 0x04;
  private static final int FLAG_NAME = 0x08;
  private static final int FLAG_COMMENT = 0x10;
  private static final int DEFLATE = 8;

  private static final ThreadLocal<Inflater> INFLATERS =
      ThreadLocal.withInitial(() -> new Inflater(true));

  private GzipCodec() {}

  @Override
  public byte[] compress(byte[] src, int offset, int length) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(length / 2 + 32);
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(src, offset, length);
    }
    return out.toByteArray();
  }

  @Override
  public void decompress(Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int dstLength)
      throws IOException {
    int in = srcIndex;
    int inEnd = srcIndex + srcLength;
    int out = dstIndex;
    int outEnd = dstIndex + dstLength;
    do {
      in = skipHeader(src, in, inEnd);
      int memberStart = out;
      Inflater inflater = INFLATERS.get();
      inflater.reset();
      int consumed;
      try {
        ByteBuffer input = staged(src, in, inEnd - in);
        ByteBuffer[] views = dst.writableByteBuffers(out, outEnd - out);
        boolean inPlace = views.length == 1;
        ByteBuffer output = inPlace ? views[0] : ByteBuffer.allocate(outEnd - out);
        inflater.setInput(input);
        while (!inflater.finished()) {
          int produced = inflater.inflate(output);
          if (produced == 0 && !inflater.finished()) {
            if (inflater.needsInput()) {
              throw new IOException("GZ data ends before the deflate stream does");
            }
            if (!output.hasRemaining()) {
              throw new IOException(
                  "GZ data inflates to more than the expected " + dstLength + " bytes");
            }
            if (inflater.needsDictionary()) {
              throw new IOException("GZ data needs a preset dictionary");
            }
          }
        }
        consumed = (int) inflater.getBytesRead();
        int produced = (int) inflater.getBytesWritten();
        if (!inPlace) {
          dst.putBytes(out, output.array(), 0, produced);
        }
        out += produced;
      } catch (DataFormatException e) {
        throw new IOException("GZ deflate data is malformed: " + e.getMessage(), e);
      }
      in += consumed;
      if (inEnd - in < TRAILER) {
        throw new IOException(
            "GZ member trailer truncated: " + (inEnd - in) + " of " + TRAILER + " bytes");
      }
      int storedCrc = Integer.reverseBytes(src.getInt(in));
      int storedSize = Integer.reverseBytes(src.getInt(in + 4));
      int actualCrc =
          out == memberStart ? 0 : ChecksumType.CRC32.compute(dst, memberStart, out - memberStart);
      if (storedCrc != actualCrc || storedSize != out - memberStart) {
        throw new IOException(
            String.format(
                "GZ member trailer mismatch: crc32 0x%08x size %d "
                    + "stored, 0x%08x size %d computed",
                storedCrc, storedSize, actualCrc, out - memberStart));
      }
      in += TRAILER;
    } while (in < inEnd);
    if (out != outEnd) {
      throw new IOException(
          "GZ payload inflated to " + (out - dstIndex) + " bytes, expected " + dstLength);
    }
  }

  /** A view of an input range, in place when it is one segment, else a heap copy. */
  private static ByteBuffer staged(Buf src, int index, int length) {
    Buf range = src.slice(index, length);
    return range.isSingleSegment()
        ? range.readOnlyByteBuffers()[0]
        : ByteBuffer.wrap(range.getBytes(0, length));
  }

  /** Validates a member header at {@code in} and returns the index of its deflate data. */
  private static int skipHeader(Buf src, int in, int inEnd) throws IOException {
    if (inEnd - in < FIXED_HEADER) {
      throw new IOException(
          "GZ header truncated: " + (inEnd - in) + " of " + FIXED_HEADER + " bytes");
    }
    int magic = src.getUnsignedShort(in);
    if (magic != 0x1F8B) {
      throw new IOException(String.format("GZ magic is 0x%04x, expected 0x1f8b", magic));
    }
    int method = src.getUnsignedByte(in + 2);
    if (method != DEFLATE) {
      throw new IOException("GZ compression method is " + method + ", expected 8 (deflate)");
    }
    int flags = src.getUnsignedByte(in + 3);
    int at = in + FIXED_HEADER;
    if ((flags & FLAG_EXTRA) != 0) {
      require(at + 2, inEnd, "extra field length");
      at += 2 + (src.getUnsignedByte(at) | src.getUnsignedByte(at + 1) << 8);
    }
    if ((flags & FLAG_NAME) != 0) {
      at = skipZeroTerminated(src, at, inEnd, "file name");
    }
    if ((flags & FLAG_COMMENT) != 0) {
      at = skipZeroTerminated(src, at, inEnd, "comment");
    }
    if ((flags & FLAG_HCRC) != 0) {
      at += 2;
    }
    require(at, inEnd, "header");
    return at;
  }

  private static int skipZeroTerminated(Buf src, int at, int inEnd, String what)
      throws IOException {
    while (at < inEnd && src.getByte(at) != 0) {
      at++;
    }
    require(at + 1, inEnd, what);
    return at + 1;
  }

  private static void require(int needed, int inEnd, String what) throws IOException {
    if (needed > inEnd) {
      throw new IOException("GZ " + what + " runs past the end of the payload");
    }
  }
}
