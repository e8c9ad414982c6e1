package dev.cellar.hfile.encoding;

/**
 * An index of one data block's cells, built by {@link BlockSeeker#indexBlock()} in one pass over
 * the block and kept beside the block by whoever shares it, so that a seek binary-searches a few
 * entries and then walks at most a short stretch of cells instead of the whole block. Nothing of it
 * is written to files: HBase's formats have no restart points, so the index is derived from the
 * block's bytes each time a block object is built. Immutable and thread-safe once built: every
 * seeker set on the same block may use it at once.
 *
 * <p>Two kinds, one per family of encodings:
 *
 * <ul>
 *   <li>{@link CellOffsets} (NONE): the payload offsets of cells spread over the block; a seek
 *       compares keys in place at those offsets;
 *   <li>{@link Checkpoints} (PREFIX, DIFF, FAST_DIFF): for cells spread over the block, a copy of
 *       the decoded key and where the cell's value and suffix lie, from which decoding resumes (a
 *       delta-encoded cell can otherwise only be decoded from its predecessor).
 * </ul>
 *
 * <p>Size: an entry is taken only once the cells since the previous entry span many times the
 * entry's own heap bytes (for checkpoints 8 times at a row's first cell and 64 times inside a row;
 * for cell offsets 64 times), so an index never takes more than {@link
 * Encodings#maxSeekIndexHeapSize}: 1/8 (1/64) of the block's payload plus a few objects. A cache
 * can so account a block's index before it is built.
 */
public sealed interface SeekIndex permits CellOffsets, Checkpoints {

  /** The heap bytes this index takes, at most its encoding's {@code maxSeekIndexHeapSize}. */
  long heapSize();

  /** The number of entries. */
  int count();

  /**
   * Called by the block object that carried this index at its last release, when no reader can
   * reach the index any more: an index may hand its memory to the next one built. Nothing after.
   */
  default void recycle() {}
}
