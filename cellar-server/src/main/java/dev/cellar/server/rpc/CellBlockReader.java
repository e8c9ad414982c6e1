package dev.cellar.server.rpc;

import io.netty.buffer.ByteBuf;

/**
 * Walks the cells of a request's cell block in place, one at a time: a flyweight whose accessors
 * give the current cell's parts as offsets into the block's buffer, so reading allocates nothing
 * but the arrays a caller copies out.
 *
 * <p>Layout read (written by the client's KeyValueCodec): per cell {@code int32 length}, then
 * {@code int32 keyLength, int32 valueLength}, the key ({@code int16 rowLength, row, int8
 * familyLength, family, qualifier, int64 timestamp, int8 type}), the value, and any tags up to
 * {@code length}. Every length is checked against the block, so a truncated or lying block ends in
 * a {@link MalformedCellBlockException} naming the offset, never in a read beyond it.
 *
 * <p>Not thread-safe; the buffer is the caller's and must stay readable while this is used.
 */
public final class CellBlockReader {

  private static final int KEY_FIXED = 2 + 1 + 8 + 1;

  private final ByteBuf block;
  private int position;
  private int cellStart;
  private int keyLength;
  private int valueLength;
  private int rowLength;
  private int familyLength;

  /** Reads the readable bytes of {@code block} (which may be null: no cells). */
  public CellBlockReader(ByteBuf block) {
    this.block = block;
    this.position = block == null ? 0 : block.readerIndex();
  }

  /** Moves to the next cell; false when the block has none left. */
  public boolean advance() throws MalformedCellBlockException {
    if (block == null || position >= block.writerIndex()) {
      return false;
    }
    int remaining = block.writerIndex() - position;
    if (remaining < 12) {
      throw malformed("a cell header needs 12 bytes, " + remaining + " left");
    }
    int length = block.getInt(position);
    keyLength = block.getInt(position + 4);
    valueLength = block.getInt(position + 8);
    if (length < 8
        || length > remaining - 4
        || keyLength < KEY_FIXED
        || valueLength < 0
        || (long) keyLength + valueLength + 8 > length) {
      throw malformed(
          "cell lengths "
              + length
              + "/"
              + keyLength
              + "/"
              + valueLength
              + " do not fit the "
              + remaining
              + " bytes left");
    }
    cellStart = position + 4;
    rowLength = block.getUnsignedShort(keyOffset());
    if (rowLength + KEY_FIXED > keyLength) {
      throw malformed("row length " + rowLength + " exceeds key length " + keyLength);
    }
    familyLength = block.getUnsignedByte(keyOffset() + 2 + rowLength);
    if (rowLength + familyLength + KEY_FIXED > keyLength) {
      throw malformed("family length " + familyLength + " exceeds key length " + keyLength);
    }
    position = cellStart + length;
    return true;
  }

  private MalformedCellBlockException malformed(String what) {
    return new MalformedCellBlockException(
        "malformed request cell block at offset " + (position - block.readerIndex()) + ": " + what);
  }

  private int keyOffset() {
    return cellStart + 8;
  }

  public int rowOffset() {
    return keyOffset() + 2;
  }

  public int rowLength() {
    return rowLength;
  }

  public int familyOffset() {
    return rowOffset() + rowLength + 1;
  }

  public int familyLength() {
    return familyLength;
  }

  public int qualifierOffset() {
    return familyOffset() + familyLength;
  }

  public int qualifierLength() {
    return keyLength - KEY_FIXED - rowLength - familyLength;
  }

  public long timestamp() {
    return block.getLong(keyOffset() + keyLength - 9);
  }

  public byte typeByte() {
    return block.getByte(keyOffset() + keyLength - 1);
  }

  public int valueOffset() {
    return keyOffset() + keyLength;
  }

  public int valueLength() {
    return valueLength;
  }

  public byte[] copy(int offset, int length) {
    byte[] bytes = new byte[length];
    block.getBytes(offset, bytes);
    return bytes;
  }

  public byte[] row() {
    return copy(rowOffset(), rowLength);
  }

  public byte[] family() {
    return copy(familyOffset(), familyLength);
  }

  public byte[] qualifier() {
    return copy(qualifierOffset(), qualifierLength());
  }

  public byte[] value() {
    return copy(valueOffset(), valueLength);
  }

  /** Whether the current cell's row equals {@code row}. */
  public boolean rowEquals(byte[] row) {
    if (row.length != rowLength) {
      return false;
    }
    for (int i = 0; i < rowLength; i++) {
      if (block.getByte(rowOffset() + i) != row[i]) {
        return false;
      }
    }
    return true;
  }
}
