package dev.cellar.hfile.encoding;

import static dev.cellar.hfile.encoding.FastDiffEncoder.FIRST_CELL_FLAGS;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_KEY_LENGTH;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_TYPE;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_VALUE;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_VALUE_LENGTH;
import static dev.cellar.hfile.encoding.FastDiffEncoder.MASK_TIMESTAMP_PREFIX;

import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;

/**
 * Reads FAST_DIFF data blocks (layout in {@link FastDiffEncoder}). Not thread-safe; one per reader
 * thread, reused across blocks.
 *
 * <p>The first key is stored whole. Later keys take the family and the leading timestamp bytes from
 * the previous key; a repeated value (SAME_VALUE) is a view of the previous cell's value bytes in
 * the block, so it costs nothing to decode.
 */
final class FastDiffSeeker extends TimestampedDeltaSeeker {

  private static final int KNOWN_FLAGS =
      MASK_TIMESTAMP_PREFIX
          | FLAG_SAME_KEY_LENGTH
          | FLAG_SAME_VALUE_LENGTH
          | FLAG_SAME_TYPE
          | FLAG_SAME_VALUE;

  /** Payload offset of the family length byte in the block's first key, whole in the block. */
  private int familyAt;

  /** Where the header {@link #readHeader} read last starts, and its flags. */
  private int headerAt;

  private int headerFlags;

  FastDiffSeeker(EncodingContext context) {
    super(context, DataBlockEncoding.FAST_DIFF);
  }

  @Override
  long blockFacts() {
    return familyAt;
  }

  @Override
  void restoreBlockFacts(long facts) {
    familyAt = (int) facts;
  }

  @Override
  void decodeFirst(DecodedCell target) {
    int at = in.position();
    int flags = in.readUnsignedByte("the flags");
    int keyLength = in.readCompressedInt("a key length");
    int valueLength = in.readCompressedInt("a value length");
    int common = in.readCompressedInt("a common prefix length");
    if (flags != FIRST_CELL_FLAGS || common != 0) {
      throw in.malformed(
          at,
          "a first cell with flags 0 and no common prefix",
          "flags " + flags + ", common prefix " + common);
    }
    int keyAt = in.position();
    readWholeKey(target, keyLength);
    familyAt = (int) KeyValueLayout.familyLengthOffset(keyAt, target.rowLength());
    readValue(target, valueLength);
  }

  @Override
  int readHeader(DecodedCell base) {
    headerAt = in.position();
    int flags = in.readUnsignedByte("the flags");
    if ((flags & ~KNOWN_FLAGS) != 0) {
      throw in.malformed(
          headerAt, "flags within 0x" + Integer.toHexString(KNOWN_FLAGS), "flags " + flags);
    }
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
    return cell.familyLength();
  }

  @Override
  void decode(DecodedCell target, DecodedCell base, boolean lazily) {
    long previousTimestamp = base.timestamp();
    byte previousType = base.typeByte();
    long previousValueAt = base.valueOffset();
    int flags = headerFlags;
    int keyLength = headerKeyLength;
    int valueLength = headerValueLength;
    MemorySegment key =
        lazily
            ? skipKeyBeforeTimestamp(target, headerCommon, keyLength, base.familyLength())
            : readKeyBeforeTimestamp(
                target, base, headerCommon, keyLength, familyAt, base.familyLength());
    int prefixBytes = flags & MASK_TIMESTAMP_PREFIX;
    long tail = in.readBigEndian(KeyValueLayout.TIMESTAMP_SIZE - prefixBytes, "the timestamp");
    long prefix =
        prefixBytes == 0 ? 0 : previousTimestamp & (-1L << (Long.SIZE - prefixBytes * Byte.SIZE));
    key.set(ByteLayouts.LONG_BE, timestampAt(keyLength), prefix | tail);
    readType(key, keyLength, (flags & FLAG_SAME_TYPE) != 0, previousType);
    if ((flags & FLAG_SAME_VALUE) == 0) {
      readValue(target, valueLength);
    } else if (previousValueAt + valueLength > in.limit()) {
      throw in.malformed(
          headerAt, "a repeated value inside the block", "value length " + valueLength);
    } else {
      target.setValue(in.segment(), previousValueAt, valueLength);
    }
  }
}
