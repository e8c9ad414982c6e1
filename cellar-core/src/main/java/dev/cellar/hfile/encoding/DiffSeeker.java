package dev.cellar.hfile.encoding;

import static dev.cellar.hfile.encoding.DiffEncoder.FLAG_SAME_KEY_LENGTH;
import static dev.cellar.hfile.encoding.DiffEncoder.FLAG_SAME_TYPE;
import static dev.cellar.hfile.encoding.DiffEncoder.FLAG_SAME_VALUE_LENGTH;
import static dev.cellar.hfile.encoding.DiffEncoder.FLAG_TIMESTAMP_IS_DIFF;
import static dev.cellar.hfile.encoding.DiffEncoder.FLAG_TIMESTAMP_SIGN;
import static dev.cellar.hfile.encoding.DiffEncoder.MASK_TIMESTAMP_WIDTH;
import static dev.cellar.hfile.encoding.DiffEncoder.SHIFT_TIMESTAMP_WIDTH;

import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;

/**
 * Reads DIFF data blocks (layout in {@link DiffEncoder}). Not thread-safe; one per reader thread,
 * reused across blocks.
 *
 * <p>The family, stored once before the first cell, is copied from there into every key whose row
 * differs from the previous one. A first cell whose flags refer to a previous cell is malformed.
 */
final class DiffSeeker extends TimestampedDeltaSeeker {

  private static final int FLAGS_NEEDING_A_PREVIOUS_CELL =
      FLAG_SAME_KEY_LENGTH | FLAG_SAME_VALUE_LENGTH | FLAG_SAME_TYPE | FLAG_TIMESTAMP_IS_DIFF;

  private int familyAt;
  private int familyLength;

  /** The flags of the header {@link #readHeader} read last. */
  private int headerFlags;

  DiffSeeker(EncodingContext context) {
    super(context, DataBlockEncoding.DIFF);
  }

  @Override
  void readPreamble() {
    familyAt = in.position();
    familyLength = in.readUnsignedByte("the family length");
    if (familyLength > KeyValueLayout.MAX_FAMILY_LENGTH) {
      throw in.malformed(
          familyAt,
          "a family length of at most " + KeyValueLayout.MAX_FAMILY_LENGTH,
          "family length " + familyLength);
    }
    in.require(familyLength, "the family");
  }

  @Override
  long blockFacts() {
    return ((long) familyAt << Integer.SIZE) | familyLength;
  }

  @Override
  void restoreBlockFacts(long facts) {
    familyAt = (int) (facts >>> Integer.SIZE);
    familyLength = (int) facts;
  }

  @Override
  void decodeFirst(DecodedCell target) {
    int at = in.position();
    int flags = in.readUnsignedByte("the flags");
    if ((flags & FLAGS_NEEDING_A_PREVIOUS_CELL) != 0) {
      throw in.malformed(at, "first-cell flags without 0x0F bits", "flags " + flags);
    }
    int keyLength = in.readCompressedInt("a key length");
    int valueLength = in.readCompressedInt("a value length");
    int common = in.readCompressedInt("a common prefix length");
    MemorySegment key =
        readKeyBeforeTimestamp(target, null, common, keyLength, familyAt, familyLength);
    finish(target, key, flags, 0, (byte) 0, valueLength);
  }

  @Override
  int readHeader(DecodedCell base) {
    int flags = in.readUnsignedByte("the flags");
    headerFlags = flags;
    return readLengths(
        (flags & FLAG_SAME_KEY_LENGTH) != 0, (flags & FLAG_SAME_VALUE_LENGTH) != 0, base);
  }

  @Override
  int familyAt() {
    return familyAt;
  }

  @Override
  int familyLength(DecodedCell cell) {
    return familyLength;
  }

  @Override
  void decode(DecodedCell target, DecodedCell base, boolean lazily) {
    long previousTimestamp = base.timestamp();
    byte previousType = base.typeByte();
    MemorySegment key =
        lazily
            ? skipKeyBeforeTimestamp(target, headerCommon, headerKeyLength, familyLength)
            : readKeyBeforeTimestamp(
                target, base, headerCommon, headerKeyLength, familyAt, familyLength);
    finish(target, key, headerFlags, previousTimestamp, previousType, headerValueLength);
  }

  private void finish(
      DecodedCell target,
      MemorySegment key,
      int flags,
      long previousTimestamp,
      byte previousType,
      int valueLength) {
    int keyLength = target.keyLength();
    int width = 1 + ((flags & MASK_TIMESTAMP_WIDTH) >>> SHIFT_TIMESTAMP_WIDTH);
    long stored = in.readLittleEndian(width, "the timestamp");
    if ((flags & FLAG_TIMESTAMP_SIGN) != 0) {
      stored = -stored;
    }
    long timestamp = (flags & FLAG_TIMESTAMP_IS_DIFF) != 0 ? previousTimestamp - stored : stored;
    key.set(ByteLayouts.LONG_BE, timestampAt(keyLength), timestamp);
    readType(key, keyLength, (flags & FLAG_SAME_TYPE) != 0, previousType);
    readValue(target, valueLength);
  }
}
