package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.DataBlockEncoding;

/**
 * Reads ROW_INDEX_V1 data blocks (layout in {@link RowIndexEncoder}). Not thread-safe; one per
 * reader thread, reused across blocks.
 *
 * <p>A seek binary-searches the row index for the last row whose first cell qualifies, comparing
 * that cell's whole key (not only its row, so a seek lands in the right row even for keys inside
 * it), then walks forward through that row. Row offsets are checked against the cells region when
 * read.
 */
final class RowIndexSeeker extends PlainSeeker {

  private int rowCount;
  private int rowOffsetsAt;

  RowIndexSeeker(EncodingContext context) {
    super(context, DataBlockEncoding.ROW_INDEX_V1);
  }

  @Override
  void locateCells() {
    int size = in.limit();
    int framing =
        RowIndexEncoder.CELLS_OFFSET
            + RowIndexEncoder.ROW_COUNT_SIZE
            + RowIndexEncoder.CELLS_SIZE_SIZE;
    if (size < framing) {
      throw in.malformed(0, "at least " + framing + " bytes of framing", size + " bytes");
    }
    in.expectEncodingId();
    int cellsSizeAt = size - RowIndexEncoder.CELLS_SIZE_SIZE;
    int cellsSize = in.segment().get(ByteLayouts.INT_BE, cellsSizeAt);
    if (cellsSize <= 0 || cellsSize > size - framing) {
      throw in.malformed(
          cellsSizeAt, "a cells size between 1 and " + (size - framing), "size " + cellsSize);
    }
    int rowCountAt = RowIndexEncoder.CELLS_OFFSET + cellsSize;
    rowCount = in.segment().get(ByteLayouts.INT_BE, rowCountAt);
    rowOffsetsAt = rowCountAt + RowIndexEncoder.ROW_COUNT_SIZE;
    long indexSize = (long) rowCount * RowIndexEncoder.ROW_OFFSET_SIZE;
    if (rowCount <= 0 || rowOffsetsAt + indexSize != cellsSizeAt) {
      throw in.malformed(
          rowCountAt,
          "a row count whose offsets fill the "
              + (cellsSizeAt - rowOffsetsAt)
              + " bytes before the cells size",
          "row count " + rowCount);
    }
    setCells(RowIndexEncoder.CELLS_OFFSET, rowCountAt);
  }

  /** Returns null: the block's own row index already makes seeks a binary search. */
  @Override
  public SeekIndex indexBlock() {
    checkBlock();
    return null;
  }

  @Override
  int seekStart(Cell key, boolean seekBefore) {
    int found = -1;
    int low = 0;
    int high = rowCount - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int at = rowStart(middle);
      checkKey(at);
      if (qualifies(compareAt(key, at), seekBefore)) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found < 0) {
      return -1;
    }
    if (found + 1 < rowCount) {
      knownStop(rowStart(found + 1));
    }
    return rowStart(found);
  }

  /**
   * Checks that the key of the cell at {@code at} lies within the cells, which is all a comparison
   * reads: a step of the search reads neither the value nor what follows it (the cell a seek stops
   * on is checked whole before it is read).
   */
  private void checkKey(int at) {
    if (at > cellsEnd() - KeyValueLayout.KEY_OFFSET) {
      throw in.malformed(
          at, "a cell's key and value lengths before " + cellsEnd(), "the end of the cells");
    }
    int keyLength = KeyValueLayout.keyLength(in.segment(), at);
    if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
        || KeyValueLayout.keyOffset(at) + keyLength > cellsEnd()) {
      throw in.malformed(
          at,
          "a key of at least "
              + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
              + " bytes ending by "
              + cellsEnd(),
          "key length " + keyLength);
    }
  }

  private int rowStart(int row) {
    int entryAt = rowOffsetsAt + row * RowIndexEncoder.ROW_OFFSET_SIZE;
    int offset = in.segment().get(ByteLayouts.INT_BE, entryAt);
    int cellsSize = cellsEnd() - cellsStart();
    if (offset < 0 || offset >= cellsSize) {
      throw in.malformed(
          entryAt, "a row offset between 0 and " + (cellsSize - 1), "offset " + offset);
    }
    return cellsStart() + offset;
  }
}
