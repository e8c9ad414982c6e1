package dev.cellar.hfile.encoding;

import dev.cellar.schema.DataBlockEncoding;

/**
 * The encoder, seeker and seek-index bound of each {@link DataBlockEncoding}: the engine's half of
 * the encodings the schema names. Stateless.
 */
public final class Encodings {

  /** Position of the encoding id in an encoded payload. */
  static final int ID_OFFSET = 0;

  private Encodings() {}

  /** Returns a new encoder, to be reused for every data block of one file. */
  public static BlockEncoder newEncoder(DataBlockEncoding encoding, EncodingContext context) {
    return switch (encoding) {
      case NONE -> new NoneEncoder(context);
      case PREFIX -> new PrefixEncoder(context);
      case DIFF -> new DiffEncoder(context);
      case FAST_DIFF -> new FastDiffEncoder(context);
      case ROW_INDEX_V1 -> new RowIndexEncoder(context);
    };
  }

  /** Returns a new seeker, to be reused for any number of blocks of one file. */
  public static BlockSeeker newSeeker(DataBlockEncoding encoding, EncodingContext context) {
    return switch (encoding) {
      case NONE -> new NoneSeeker(context);
      case PREFIX -> new PrefixSeeker(context);
      case DIFF -> new DiffSeeker(context);
      case FAST_DIFF -> new FastDiffSeeker(context);
      case ROW_INDEX_V1 -> new RowIndexSeeker(context);
    };
  }

  /**
   * Returns whether a seeker's cells are views lying wholly in the block's memory (NONE and
   * ROW_INDEX_V1 store plain KeyValues); the delta encodings rebuild keys in a scratch buffer.
   */
  public static boolean cellsLieInBlock(DataBlockEncoding encoding) {
    return encoding == DataBlockEncoding.NONE || encoding == DataBlockEncoding.ROW_INDEX_V1;
  }

  /**
   * Returns the most heap bytes the {@link SeekIndex} of a block of {@code encoding} with a payload
   * of {@code payloadSize} bytes takes; 0 for ROW_INDEX_V1, whose blocks are never given one.
   */
  public static long maxSeekIndexHeapSize(DataBlockEncoding encoding, int payloadSize) {
    return switch (encoding) {
      case NONE -> CellOffsets.maxHeapSize(payloadSize);
      case PREFIX, DIFF, FAST_DIFF -> Checkpoints.maxHeapSize(payloadSize);
      case ROW_INDEX_V1 -> 0;
    };
  }
}
