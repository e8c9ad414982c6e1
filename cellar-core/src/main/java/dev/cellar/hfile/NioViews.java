package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.nio.ByteBuffer;

/**
 * {@link ByteBuffer} views of {@link Buf} ranges for the compression libraries, whose fast paths
 * take direct buffers. A range of one off-heap segment is viewed in place; anything else (a heap
 * buffer, or a range crossing segments) is staged through a heap copy.
 */
final class NioViews {

  private NioViews() {}

  /** True if {@code length} bytes of {@code buf} from {@code index} are one off-heap range. */
  static boolean isDirectRange(Buf buf, int index, int length) {
    Buf range = buf.slice(index, length);
    return range.isSingleSegment() && range.isDirect();
  }

  /** A writable direct view of a range for which {@link #isDirectRange} is true. */
  static ByteBuffer directView(Buf buf, int index, int length) {
    return buf.writableByteBuffers(index, length)[0];
  }
}
