package dev.cellar.hfile.encoding;

import static dev.cellar.hfile.encoding.FastDiffEncoder.FIRST_CELL_FLAGS;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_KEY_LENGTH;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_TYPE;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_VALUE;
import static dev.cellar.hfile.encoding.FastDiffEncoder.FLAG_SAME_VALUE_LENGTH;
import static dev.cellar.hfile.encoding.FastDiffEncoder.MASK_TIMESTAMP_PREFIX;

import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;

/**
 * Reads FAST_DIFF data blocks (layout in {@link FastDiffEncoder}). Not thread-safe; one per reader
 * thread, reused across blocks.
 *
 * <p>The first key is stored whole. Later keys take the family and the leading timestamp bytes from
 * the previous key; a repeated value (SAME_VALUE) is a view of the previous cell's value bytes in
 * the block, so it costs nothing to decode.
 */
final class FastDiffSeeker extends DeltaSeeker {

  private static final int KNOWN_FLAGS =
      MASK_TIMESTAMP_PREFIX
          | FLAG_SAME_KEY_LENGTH
          | FLAG_SAME_VALUE_LENGTH
          | FLAG_SAME_TYPE
          | FLAG_SAME_VALUE;

  /** How far the first byte of a header word lies from its low end. */
  private static final int HEADER_SHIFT = Long.SIZE - Byte.SIZE;

  /**
   * By the number of lengths a cell stores (1 to 3): the continuation bits of those lengths' bytes
   * in a header word, each in the byte after the flags', all clear when each length takes one byte.
   */
  private static final long[] ONE_BYTE_FIELDS = {
    0, 0x0080_0000_0000_0000L, 0x0080_8000_0000_0000L, 0x0080_8080_0000_0000L
  };

  /** Payload offset of the family length byte in the block's first key, whole in the block. */
  private int familyAt;

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

  /**
   * Decodes the next cell. Its header (flags, the lengths not repeated, the common prefix length)
   * is parsed out of one {@link PayloadReader#peekWord word} when every length stored takes one
   * byte, as a cell's lengths under 128 do; otherwise field by field.
   */
  @Override
  int decodeNext(DecodedCell target, DecodedCell base) {
    long previousTimestamp = base.timestamp();
    byte previousType = base.typeByte();
    long previousValueAt = base.valueOffset();
    int at = in.position();
    long header = in.peekWord();
    int flags = (int) (header >>> HEADER_SHIFT);
    if ((flags & ~KNOWN_FLAGS) != 0) {
      throw in.malformed(
          at, "flags within 0x" + Integer.toHexString(KNOWN_FLAGS), "flags " + flags);
    }
    boolean sameKeyLength = (flags & FLAG_SAME_KEY_LENGTH) != 0;
    boolean sameValueLength = (flags & FLAG_SAME_VALUE_LENGTH) != 0;
    int stored = 3 - (sameKeyLength ? 1 : 0) - (sameValueLength ? 1 : 0);
    int keyLength;
    int valueLength;
    int common;
    if ((header & ONE_BYTE_FIELDS[stored]) == 0) {
      int shift = HEADER_SHIFT - Byte.SIZE;
      if (sameKeyLength) {
        keyLength = base.keyLength();
      } else {
        keyLength = (int) (header >>> shift) & 0xFF;
        shift -= Byte.SIZE;
      }
      if (sameValueLength) {
        valueLength = base.valueLength();
      } else {
        valueLength = (int) (header >>> shift) & 0xFF;
        shift -= Byte.SIZE;
      }
      common = (int) (header >>> shift) & 0xFF;
      in.require(1 + stored, "a cell's flags and lengths");
    } else {
      in.require(1, "the flags");
      keyLength = sameKeyLength ? base.keyLength() : in.readCompressedInt("a key length");
      valueLength = sameValueLength ? base.valueLength() : in.readCompressedInt("a value length");
      common = in.readCompressedInt("a common prefix length");
    }
    MemorySegment key =
        readKeyBeforeTimestamp(target, base, common, keyLength, familyAt, base.familyLength());
    int prefixBytes = flags & MASK_TIMESTAMP_PREFIX;
    long tail = in.readBigEndian(KeyValueLayout.TIMESTAMP_SIZE - prefixBytes, "the timestamp");
    long prefix = prefixBytes == 0 ? 0 : previousTimestamp & (-1L << (Long.SIZE - prefixBytes * Byte.SIZE));
    key.set(ByteLayouts.LONG_BE, timestampAt(keyLength), prefix | tail);
    readType(key, keyLength, (flags & FLAG_SAME_TYPE) != 0, previousType);
    if ((flags & FLAG_SAME_VALUE) == 0) {
      readValue(target, valueLength);
    } else if (previousValueAt + valueLength > in.limit()) {
      throw in.malformed(at, "a repeated value inside the block", "value length " + valueLength);
    } else {
      target.setValue(in.segment(), previousValueAt, valueLength);
    }
    return common;
  }
}
