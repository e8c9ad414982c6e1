package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.DataBlockEncoding;
import java.util.Arrays;

/**
 * Writes ROW_INDEX_V1 data blocks. Not thread-safe; one per file writer, reused for every block.
 *
 * <p>Layout of a ROW_INDEX_V1 payload (block type ENCODED_DATA):
 *
 * <pre>
 *  int16  encoding id 7
 *         cells, each in {@link PlainCellFormat}; tags are never dictionary-compressed here,
 *         whatever the file's compressTags switch says
 *  int32  rowCount
 *  int32  rowOffset[rowCount]   where each row's first cell starts, relative to the first cell
 *  int32  cellsSize             bytes of the cells region
 * </pre>
 *
 * There is no unencoded-size field. A row starts at every cell whose row differs from the previous
 * cell's. For the block-size cut, each row adds {@value #ROW_OFFSET_SIZE} bytes to the encoded size
 * (HBase's accounting; the count and size fields are not counted).
 */
final class RowIndexEncoder implements BlockEncoder {

  /** Position of the first cell in the payload. */
  static final int CELLS_OFFSET = Encodings.ID_OFFSET + DataBlockEncoding.ID_SIZE;

  /** Size of the row count field after the cells. */
  static final int ROW_COUNT_SIZE = Integer.BYTES;

  /** Size of one row offset. */
  static final int ROW_OFFSET_SIZE = Integer.BYTES;

  /** Size of the cells-size field that ends the payload. */
  static final int CELLS_SIZE_SIZE = Integer.BYTES;

  private static final int INITIAL_ROWS = 64;

  private final EncodingContext context;
  private final BlockOutput out = new BlockOutput();
  private int[] rowOffsets = new int[INITIAL_ROWS];
  private int rowCount;
  private int cellCount;
  private int previousRowOffset;
  private int previousRowLength;

  RowIndexEncoder(EncodingContext context) {
    this.context = context;
  }

  @Override
  public void append(Cell cell) {
    if (cellCount == 0) {
      out.writeShort(DataBlockEncoding.ROW_INDEX_V1.id());
    }
    int start = out.size();
    boolean newRow =
        cellCount == 0
            || !Bytes.equals(
                cell.segment(),
                cell.rowOffset(),
                cell.rowLength(),
                out.segment(),
                previousRowOffset,
                previousRowLength);
    PlainCellFormat.write(out, cell, context);
    if (newRow) {
      if (rowCount == rowOffsets.length) {
        rowOffsets = Arrays.copyOf(rowOffsets, 2 * rowCount);
      }
      rowOffsets[rowCount++] = start - CELLS_OFFSET;
    }
    previousRowOffset = (int) KeyValueLayout.rowOffset(KeyValueLayout.keyOffset(start));
    previousRowLength = cell.rowLength();
    cellCount++;
  }

  @Override
  public int encodedSize() {
    return cellsSize() + rowCount * ROW_OFFSET_SIZE;
  }

  @Override
  public int unencodedSize() {
    return cellsSize();
  }

  @Override
  public int cellCount() {
    return cellCount;
  }

  @Override
  public byte[] finishBlock() {
    if (cellCount == 0) {
      throw new IllegalStateException("no cell was appended since the last block");
    }
    int cellsSize = cellsSize();
    out.writeInt(rowCount);
    for (int i = 0; i < rowCount; i++) {
      out.writeInt(rowOffsets[i]);
    }
    out.writeInt(cellsSize);
    byte[] payload = out.toByteArray();
    out.reset();
    rowCount = 0;
    cellCount = 0;
    return payload;
  }

  private int cellsSize() {
    return cellCount == 0 ? 0 : out.size() - CELLS_OFFSET;
  }
}
