package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;

/**
 * Writes NONE data blocks. Not thread-safe; one per file writer, reused for every block.
 *
 * <p>Layout of a NONE payload (block type DATA; no encoding id, no count, no index):
 *
 * <pre>
 *  cell 0 | cell 1 | ... | cell n-1        each in {@link PlainCellFormat}
 * </pre>
 *
 * Encoded and unencoded sizes are both the payload size.
 */
final class NoneEncoder implements BlockEncoder {

  private final EncodingContext context;
  private final BlockOutput out = new BlockOutput();
  private int cellCount;

  NoneEncoder(EncodingContext context) {
    this.context = context;
  }

  @Override
  public void append(Cell cell) {
    PlainCellFormat.write(out, cell, context);
    cellCount++;
  }

  @Override
  public int encodedSize() {
    return out.size();
  }

  @Override
  public int unencodedSize() {
    return out.size();
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
    byte[] payload = out.toByteArray();
    out.reset();
    cellCount = 0;
    return payload;
  }
}
