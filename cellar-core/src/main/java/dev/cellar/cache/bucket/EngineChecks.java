package dev.cellar.cache.bucket;

/** Argument checks the engines share, with messages naming the engine. */
final class EngineChecks {

  private EngineChecks() {}

  /**
   * Throws unless {@code [offset, offset + length)} lies inside {@code engine}'s address space.
   *
   * @throws IndexOutOfBoundsException naming the engine, the offset, the length and the capacity
   */
  static void checkRange(IOEngine engine, long offset, long length) {
    long capacity = engine.capacity();
    if (offset < 0 || length < 0 || offset > capacity - length) {
      throw new IndexOutOfBoundsException(
          engine.description()
              + ": access of "
              + length
              + " bytes at offset "
              + offset
              + " is outside the capacity of "
              + capacity
              + " bytes");
    }
  }

  /**
   * Throws unless {@code capacity} is a positive whole number of segments of {@code segmentSize}.
   */
  static void checkSizes(long capacity, long segmentSize) {
    if (segmentSize <= 0 || capacity <= 0 || capacity % segmentSize != 0) {
      throw new IllegalArgumentException(
          "the engine capacity "
              + capacity
              + " must be a positive multiple of the segment size "
              + segmentSize);
    }
  }

  /**
   * Throws {@link IllegalArgumentException} for an access running past the end of the piece (a
   * file, a segment) holding its first byte, which the cache's whole-bucket allocation rules out.
   *
   * @param kind what a piece is, "file" or "segment"
   * @param piece which piece, as shown in the message
   */
  static void checkWithinPiece(
      IOEngine engine, long offset, long length, String kind, Object piece, long pieceEnd) {
    if (offset + length > pieceEnd) {
      throw new IllegalArgumentException(
          engine.description()
              + ": access of "
              + length
              + " bytes at offset "
              + offset
              + " runs past the end of "
              + kind
              + " "
              + piece
              + " at offset "
              + pieceEnd
              + "; an access must stay within one "
              + kind);
    }
  }
}
