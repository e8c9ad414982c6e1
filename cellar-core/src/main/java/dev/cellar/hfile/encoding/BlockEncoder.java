package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;

/**
 * Turns the cells of one data block into the block's uncompressed payload, in one of HBase's
 * encodings. Not thread-safe: an HFile writer owns one encoder and reuses it for every block.
 *
 * <p>Cells arrive in comparator order, all of one family; the HFile writer checks the order. After
 * each {@link #append}, {@link #encodedSize()} and {@link #unencodedSize()} give the two sizes
 * HBase compares with the block size to decide where a block ends. {@link #finishBlock()} returns
 * the payload and starts the next block.
 */
public interface BlockEncoder {

  /**
   * Adds a cell to the current block. The cell is read during the call only; the encoder keeps what
   * it needs of it, so the caller may reuse the cell's memory afterwards. Its {@link
   * Cell#sequenceId()} is the mvcc written when the file includes mvcc.
   *
   * @throws IllegalArgumentException if the cell has tags but the file includes none, its tags
   *     section is malformed, or (for PREFIX, DIFF and FAST_DIFF) its family differs from the
   *     block's
   */
  void append(Cell cell);

  /**
   * Returns what this block's cells take in the encoding, as HBase counts it for the block-size
   * cut: the encoded cells, without the encoding id and the unencoded-size field; for ROW_INDEX_V1
   * the cells plus four bytes per row. 0 before the first cell.
   */
  int encodedSize();

  /**
   * Returns what this block's cells would take in the NONE layout: per cell {@code 8 + key +
   * value}, plus {@code 2 + tags} with tags and the vlong size of the mvcc with mvcc.
   */
  int unencodedSize();

  /** Returns the number of cells appended to the current block. */
  int cellCount();

  /**
   * Returns the complete uncompressed payload of the current block (with the encoding id and, where
   * the encoding has one, the unencoded size filled in) and resets the encoder for the next block.
   *
   * @throws IllegalStateException if no cell was appended since the last block
   */
  byte[] finishBlock();
}
