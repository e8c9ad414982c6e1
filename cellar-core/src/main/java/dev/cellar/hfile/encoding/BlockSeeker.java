package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.memory.Buf;
import java.lang.foreign.MemorySegment;

/**
 * A cursor over the cells of one unpacked data block payload, in one of HBase's encodings. Not
 * thread-safe: each reader thread owns its seekers, and reuses one for any number of blocks of a
 * file.
 *
 * <p>The payload is read in place. Moving the cursor allocates nothing on the heap once its scratch
 * buffers have grown to the block's largest key and tags. {@link #current()} is a flyweight valid
 * until the next move or {@link #setBlock}; NONE and ROW_INDEX_V1 cells are views into the payload,
 * and delta-encoded cells (PREFIX, DIFF, FAST_DIFF) have their key rebuilt in a scratch buffer
 * while their value, and their tags unless dictionary-compressed, stay views into the payload.
 *
 * <p>Bytes that break the encoding (lengths past the end, impossible prefixes, unknown flags, bad
 * dictionary indices) raise {@link MalformedBlockException}, never anything else, and no cell is
 * returned from a region found malformed.
 */
public interface BlockSeeker {

  /** {@link #seekToKeyInBlock} result: positioned on a cell equal to the key. */
  int EXACT = 0;

  /** {@link #seekToKeyInBlock} result: positioned on a cell before the key. */
  int BEFORE = 1;

  /**
   * {@link #seekToKeyInBlock} result: no cell qualifies (the key sorts before the block's first
   * cell, as a shortened index key may); positioned on the first cell. HBase's {@code
   * INDEX_KEY_MAGIC}.
   */
  int KEY_BEFORE_BLOCK = -2;

  /**
   * Points the seeker at a block payload and positions it on the first cell, with no seek index
   * (see {@link #useIndex}). The payload is a view the caller keeps alive (holding its reference)
   * for as long as the seeker and its cells are used.
   *
   * @param payload the block's uncompressed payload (after the block header), starting with the
   *     encoding id for every encoding but NONE
   * @throws IllegalArgumentException if the payload spans more than one memory segment
   * @throws MalformedBlockException if the payload is not a block of this encoding
   */
  default void setBlock(Buf payload) {
    MemorySegment segment = PayloadReader.segmentOf(payload);
    setBlock(segment, (int) segment.byteSize());
  }

  /**
   * As {@link #setBlock(Buf)}, over the first {@code length} bytes of {@code segment}, which may go
   * on after the payload (a block hands the memory it was read into from its payload on, with no
   * view made per block read); nothing past the payload is read.
   *
   * @throws MalformedBlockException if the payload is not a block of this encoding
   */
  void setBlock(MemorySegment segment, int length);

  /**
   * As {@link #setBlock(MemorySegment, int)} then {@link #useIndex}, for a block whose seek index
   * was built over these very bytes: the index shows that the block keeps to its encoding, so a
   * seeker may leave the block's first bytes unread until a move needs them (a Get that lands on
   * its row through the index then never touches them). The seeker is on the block's first cell, as
   * after {@code setBlock}.
   *
   * @throws IllegalArgumentException if {@code index} was built for another encoding
   */
  default void setIndexedBlock(MemorySegment segment, int length, SeekIndex index) {
    setBlock(segment, length);
    useIndex(index);
  }

  /**
   * Walks the current block once and returns an index of its cells, which this seeker uses from
   * then on and any seeker set on the same block bytes may be given ({@link #useIndex}); or null if
   * the block has no use for one: ROW_INDEX_V1 blocks carry their own row index, and delta-encoded
   * blocks whose tags are dictionary-compressed cannot resume decoding mid-block (the seeker is
   * then left where it was). Otherwise leaves the seeker on the block's first cell. Allocates the
   * index (at most {@link Encodings#maxSeekIndexHeapSize} of the payload) and the arrays it is
   * built in.
   *
   * @throws IllegalStateException if no block was set
   * @throws MalformedBlockException if the block breaks its encoding; the block stays set and the
   *     seeker's position is unspecified (possibly none)
   */
  SeekIndex indexBlock();

  /**
   * As {@link #indexBlock()}, an index of at most 1/64 of the payload's size plus a few objects,
   * for a block no cache keeps (whose index is kept apart from it): seeks with it may decode more
   * cells after the entry they start from. The default is {@link #indexBlock()}, for encodings
   * whose index is that small already.
   */
  default SeekIndex indexBlockSparsely() {
    return indexBlock();
  }

  /**
   * Lets seeks into the current block binary-search {@code index}, which {@link #indexBlock()}
   * built over these very block bytes (by this seeker or another), until the next {@link
   * #setBlock}. The position is unchanged.
   *
   * @throws IllegalStateException if no block was set
   * @throws IllegalArgumentException if {@code index} was built for another encoding
   */
  void useIndex(SeekIndex index);

  /**
   * Positions the seeker on the first cell of the block.
   *
   * @throws IllegalStateException if no block was set
   */
  void rewind();

  /**
   * Moves to the next cell.
   *
   * @return false, leaving the seeker invalid, if the current cell was the last one (or there is no
   *     current cell)
   */
  boolean next();

  /** Returns whether the seeker is positioned on a cell. */
  boolean isValid();

  /**
   * Returns the cell the seeker is positioned on, as a flyweight valid until the next move.
   *
   * @throws IllegalStateException if the seeker is not positioned on a cell
   */
  Cell current();

  /**
   * Positions the seeker on the last cell whose key (ignoring the sequence id) is less than or
   * equal to {@code key}, or strictly less with {@code seekBefore}. Seeking forward from the
   * current cell continues from it; any other seek starts again from the start of the block (or,
   * for ROW_INDEX_V1, from its row index). With a seek index, the search starts from the last
   * indexed cell that qualifies when that one lies ahead of the current cell (or of the block's
   * start).
   *
   * @return {@link #EXACT} if the cell found equals the key, {@link #BEFORE} if it sorts before the
   *     key, {@link #KEY_BEFORE_BLOCK} if no cell qualifies (then positioned on the first cell)
   */
  int seekToKeyInBlock(Cell key, boolean seekBefore);

  /**
   * Positions on the first cell after {@code key} where the block's seek index shows, without a
   * walk, that this cell is the first of the key's row (so every cell before it sorts before the
   * key). A point read seeks to its row's first key this way. Returns false, with the seeker as it
   * was, where it cannot tell (the default, and any block without such an index): the caller then
   * seeks with {@link #seekToKeyInBlock}.
   */
  default boolean seekToRowStart(Cell key) {
    return false;
  }

  /**
   * Returns the block's first cell, at least its key (row, family, qualifier, timestamp, type);
   * callers must not rely on its value, tags or sequence id. Cheap: every encoding stores the first
   * key whole. Valid until the next {@link #setBlock}.
   *
   * @throws IllegalStateException if no block was set
   */
  Cell firstKeyInBlock();

  /** {@link #collectLatestPuts}: stopped on the first cell of another row. */
  int ROW_ENDED = 0;

  /** {@link #collectLatestPuts}: every cell to the block's end is of the row; on the last one. */
  int BLOCK_ENDED = 1;

  /**
   * {@link #collectLatestPuts}: stopped on a cell the collection cannot decide (a delete marker, or
   * a put outside the time range); the row needs the general matcher.
   */
  int GAVE_UP = 2;

  /** {@link #collectLatestPuts}: this encoding collects no rows in place. */
  int NOT_COLLECTED = 3;

  /**
   * Hands {@code sink} the newest put of each column of the row whose {@code rowLength} bytes lie
   * at {@code rowOffset} of {@code row}, from the current cell (a cell of that row) on, in place:
   * the cells are the block's own bytes, and the walk compares raw keys with no cell objects made
   * or layers crossed per cell. A column's first cell is taken when its timestamp lies in [{@code
   * minTimestamp}, {@code maxTimestamp}), and its later cells (older versions) are stepped over;
   * any cell that is not a put gives up. The default returns {@link #NOT_COLLECTED} with nothing
   * moved.
   *
   * @return {@link #ROW_ENDED}, {@link #BLOCK_ENDED}, {@link #GAVE_UP} or {@link #NOT_COLLECTED}
   */
  default int collectLatestPuts(
      MemorySegment row,
      long rowOffset,
      int rowLength,
      long minTimestamp,
      long maxTimestamp,
      RowCellSink sink) {
    return NOT_COLLECTED;
  }
}
