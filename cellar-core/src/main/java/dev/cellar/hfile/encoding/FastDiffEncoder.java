package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;

/**
 * Writes FAST_DIFF data blocks. Not thread-safe; one per file writer, reused for every block.
 *
 * <p>Layout: the {@link DeltaEncoder common header} (id 4), no preamble, then each cell:
 *
 * <pre>
 *  uint8  flags
 *           0x07 timestampPrefix     leading bytes of the big-endian timestamp shared with the
 *                                    previous cell's (0..7; never all 8)
 *           0x08 SAME_KEY_LENGTH     key length as the previous cell's (not written)
 *           0x10 SAME_VALUE_LENGTH   value length as the previous cell's (not written)
 *           0x20 SAME_TYPE           type as the previous cell's (not written)
 *           0x40 SAME_VALUE          value bytes as the previous cell's (not written)
 *  [CINT  keyLength]                 unless SAME_KEY_LENGTH
 *  [CINT  valueLength]               unless SAME_VALUE_LENGTH
 *  CINT   common                     prefix shared with the previous key, {@link PreviousKey
 *                                    counted} up to the qualifier
 *  first cell (flags 0, common 0):   the whole serialized key, then the value
 *  later cells:
 *         key remainder              {@link DeltaEncoder#writeKeyRemainder}; no family
 *         8 - timestampPrefix bytes  the tail of the big-endian timestamp
 *  [uint8 type]                      unless SAME_TYPE
 *  [      value]                     unless SAME_VALUE
 *         common suffix: tags, mvcc
 * </pre>
 */
final class FastDiffEncoder extends DeltaEncoder {

  static final int MASK_TIMESTAMP_PREFIX = 0x07;
  static final int FLAG_SAME_KEY_LENGTH = 0x08;
  static final int FLAG_SAME_VALUE_LENGTH = 0x10;
  static final int FLAG_SAME_TYPE = 0x20;
  static final int FLAG_SAME_VALUE = 0x40;

  /** Flags of the first cell: nothing is shared. */
  static final int FIRST_CELL_FLAGS = 0;

  /** The timestamp prefix stops short of the whole timestamp. */
  static final int MAX_TIMESTAMP_PREFIX = KeyValueLayout.TIMESTAMP_SIZE - 1;

  /** Position in {@link #out} of the bytes of the last value written (what SAME_VALUE repeats). */
  private int previousValueAt;

  FastDiffEncoder(EncodingContext context) {
    super(context, DataBlockEncoding.FAST_DIFF);
  }

  @Override
  void encodeFirst(Cell cell) {
    out.writeByte(FIRST_CELL_FLAGS);
    out.writeCompressedInt(cell.keyLength());
    out.writeCompressedInt(cell.valueLength());
    out.writeCompressedInt(0);
    out.write(cell.segment(), cell.keyOffset(), cell.keyLength());
    writeValue(cell);
  }

  @Override
  void encodeNext(Cell cell) {
    int valueLength = cell.valueLength();
    long timestamp = cell.timestamp();
    int timestampPrefix =
        Math.min(
            MAX_TIMESTAMP_PREFIX,
            PreviousKey.commonTimestampBytes(timestamp, previous.timestamp()));
    int flags = timestampPrefix;
    if (cell.keyLength() == previous.keyLength()) {
      flags |= FLAG_SAME_KEY_LENGTH;
    }
    if (valueLength == previousValueLength()) {
      flags |= FLAG_SAME_VALUE_LENGTH;
      if (sameValueAsPrevious(cell)) {
        flags |= FLAG_SAME_VALUE;
      }
    }
    if (cell.typeByte() == previous.typeByte()) {
      flags |= FLAG_SAME_TYPE;
    }
    int common = previous.commonPrefix(cell, false);
    out.writeByte(flags);
    if ((flags & FLAG_SAME_KEY_LENGTH) == 0) {
      out.writeCompressedInt(cell.keyLength());
    }
    if ((flags & FLAG_SAME_VALUE_LENGTH) == 0) {
      out.writeCompressedInt(valueLength);
    }
    out.writeCompressedInt(common);
    writeKeyRemainder(cell, common);
    for (int i = timestampPrefix; i < KeyValueLayout.TIMESTAMP_SIZE; i++) {
      out.writeByte((int) (timestamp >>> ((KeyValueLayout.TIMESTAMP_SIZE - 1 - i) * Byte.SIZE)));
    }
    if ((flags & FLAG_SAME_TYPE) == 0) {
      out.writeByte(cell.typeByte());
    }
    if ((flags & FLAG_SAME_VALUE) == 0) {
      writeValue(cell);
    }
  }

  private boolean sameValueAsPrevious(Cell cell) {
    long valueAt = cell.valueOffset();
    int length = cell.valueLength();
    return MemorySegment.mismatch(
            cell.valueSegment(),
            valueAt,
            valueAt + length,
            out.segment(),
            previousValueAt,
            previousValueAt + length)
        < 0;
  }

  private void writeValue(Cell cell) {
    previousValueAt = out.size();
    out.write(cell.valueSegment(), cell.valueOffset(), cell.valueLength());
  }
}
