package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.DataBlockEncoding;

/**
 * Writes DIFF data blocks. Not thread-safe; one per file writer, reused for every block.
 *
 * <p>Layout: the {@link DeltaEncoder common header} (id 3), then the block's family once:
 *
 * <pre>
 *  uint8  familyLength, then the family
 * </pre>
 *
 * then each cell:
 *
 * <pre>
 *  uint8  flags
 *           0x01 SAME_KEY_LENGTH     key length as the previous cell's (not written)
 *           0x02 SAME_VALUE_LENGTH   value length as the previous cell's (not written)
 *           0x04 SAME_TYPE           type as the previous cell's (not written)
 *           0x08 TIMESTAMP_IS_DIFF   the stored number is previousTimestamp - timestamp
 *           0x70 width - 1           bytes of the stored number (1..8)
 *           0x80 TIMESTAMP_SIGN      the stored number is the magnitude of a negative value
 *  [CINT  keyLength]                 unless SAME_KEY_LENGTH
 *  [CINT  valueLength]               unless SAME_VALUE_LENGTH
 *  CINT   common                     prefix shared with the previous key, {@link PreviousKey
 *                                    counted} up to the qualifier (0 for the first cell)
 *         key remainder              {@link DeltaEncoder#writeKeyRemainder}; no family
 *  LE     timestamp or difference, width bytes, little-endian magnitude
 *  [uint8 type]                      unless SAME_TYPE
 *         value
 *         common suffix: tags, mvcc
 * </pre>
 *
 * The first cell stores its timestamp (flags 0x08 and below clear). A later cell stores the
 * difference from the previous timestamp when that needs fewer bytes than the timestamp itself.
 * {@code width(x)} is the fewest bytes holding {@code x}, and 8 for a negative {@code x} (the
 * magnitude of {@code Long.MIN_VALUE}).
 */
final class DiffEncoder extends DeltaEncoder {

  static final int FLAG_SAME_KEY_LENGTH = 0x01;
  static final int FLAG_SAME_VALUE_LENGTH = 0x02;
  static final int FLAG_SAME_TYPE = 0x04;
  static final int FLAG_TIMESTAMP_IS_DIFF = 0x08;
  static final int MASK_TIMESTAMP_WIDTH = 0x70;
  static final int SHIFT_TIMESTAMP_WIDTH = 4;
  static final int FLAG_TIMESTAMP_SIGN = 0x80;

  DiffEncoder(EncodingContext context) {
    super(context, DataBlockEncoding.DIFF);
  }

  @Override
  void encodeFirst(Cell cell) {
    out.writeByte(cell.familyLength());
    out.write(cell.segment(), cell.familyOffset(), cell.familyLength());
    long timestamp = cell.timestamp();
    long magnitude = Math.abs(timestamp);
    int width = width(magnitude);
    int flags = widthBits(width) | (timestamp < 0 ? FLAG_TIMESTAMP_SIGN : 0);
    write(cell, flags, 0, magnitude, width);
  }

  @Override
  void encodeNext(Cell cell) {
    int flags = 0;
    if (cell.keyLength() == previous.keyLength()) {
      flags |= FLAG_SAME_KEY_LENGTH;
    }
    if (cell.valueLength() == previousValueLength()) {
      flags |= FLAG_SAME_VALUE_LENGTH;
    }
    if (cell.typeByte() == previous.typeByte()) {
      flags |= FLAG_SAME_TYPE;
    }
    long timestamp = cell.timestamp();
    long difference = previous.timestamp() - timestamp;
    long magnitude = Math.abs(timestamp);
    long differenceMagnitude = Math.abs(difference);
    int width = width(magnitude);
    int differenceWidth = width(differenceMagnitude);
    int common = previous.commonPrefix(cell, false);
    if (differenceWidth < width) {
      flags |= widthBits(differenceWidth) | FLAG_TIMESTAMP_IS_DIFF;
      flags |= difference < 0 ? FLAG_TIMESTAMP_SIGN : 0;
      write(cell, flags, common, differenceMagnitude, differenceWidth);
    } else {
      flags |= widthBits(width) | (timestamp < 0 ? FLAG_TIMESTAMP_SIGN : 0);
      write(cell, flags, common, magnitude, width);
    }
  }

  private void write(Cell cell, int flags, int common, long storedTimestamp, int width) {
    out.writeByte(flags);
    if ((flags & FLAG_SAME_KEY_LENGTH) == 0) {
      out.writeCompressedInt(cell.keyLength());
    }
    if ((flags & FLAG_SAME_VALUE_LENGTH) == 0) {
      out.writeCompressedInt(cell.valueLength());
    }
    out.writeCompressedInt(common);
    writeKeyRemainder(cell, common);
    out.writeLittleEndian(storedTimestamp, width);
    if ((flags & FLAG_SAME_TYPE) == 0) {
      out.writeByte(cell.typeByte());
    }
    out.write(cell.valueSegment(), cell.valueOffset(), cell.valueLength());
  }

  /** Returns the fewest bytes (1..8) holding {@code magnitude}; 8 if it is negative. */
  static int width(long magnitude) {
    if (magnitude < 0) {
      return KeyValueLayout.TIMESTAMP_SIZE;
    }
    int bits = Long.SIZE - Long.numberOfLeadingZeros(magnitude);
    return Math.max(1, (bits + Byte.SIZE - 1) / Byte.SIZE);
  }

  private static int widthBits(int width) {
    return (width - 1) << SHIFT_TIMESTAMP_WIDTH;
  }
}
