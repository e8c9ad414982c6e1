package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.io.IOException;

/**
 * Compresses a block's payload for writing and decompresses it on read, producing exactly the bytes
 * HBase's codec of the same algorithm produces and consumes.
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface BlockCodec {

  /** The compressed form of {@code length} bytes of {@code src} from {@code offset}. */
  byte[] compress(byte[] src, int offset, int length) throws IOException;

  /**
   * Decompresses {@code srcLength} bytes of {@code src} from {@code srcIndex} into exactly {@code
   * dstLength} bytes of {@code dst} from {@code dstIndex}. Works between off-heap buffers without
   * staging through the heap when both ranges are single off-heap segments.
   *
   * @throws IOException if the input is malformed or does not decompress to exactly {@code
   *     dstLength} bytes; the message says what was wrong
   */
  void decompress(Buf src, int srcIndex, int srcLength, Buf dst, int dstIndex, int dstLength)
      throws IOException;
}
