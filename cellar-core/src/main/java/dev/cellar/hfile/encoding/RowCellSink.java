package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;

/**
 * Where a block seeker's row collection ({@link BlockSeeker#collectLatestPuts}) hands the cells it
 * takes. Each cell handed over is the seeker's flyweight over the block, valid until the seeker
 * moves: the sink keeps what it needs of it (a view of the block, pinning it) before returning.
 */
public interface RowCellSink {

  /**
   * Takes {@code cell}, the seeker's flyweight, whose lengths the seeker checked: a view of the
   * current block (NONE, ROW_INDEX_V1), or a key rebuilt in the seeker's scratch with its value in
   * the block (delta encodings).
   */
  void take(Cell cell);

  /**
   * The cell of the row taken last, which outlives the seeker's moves (it may lie in an earlier
   * block), or null before the row's first: the collection skips the older versions of its column.
   */
  Cell lastTaken();
}
