package dev.cellar.hfile.encoding;

import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads PREFIX data blocks (layout in {@link PrefixEncoder}). Not thread-safe; one per reader
 * thread, reused across blocks.
 *
 * <p>Each key is the previous key's first {@code common} bytes followed by the stored bytes; the
 * rebuilt key's row and family lengths are checked before the cell is exposed.
 */
final class PrefixSeeker extends DeltaSeeker {

  /** Where the header {@link #readHeader} read last starts. */
  private int headerAt;

  PrefixSeeker(EncodingContext context) {
    super(context, DataBlockEncoding.PREFIX);
  }

  @Override
  void decodeFirst(DecodedCell target) {
    readHeader(null);
    decodeBody(target, null);
  }

  @Override
  int readHeader(DecodedCell base) {
    headerAt = in.position();
    if (in.readThreeCompressedInts()) {
      headerKeyLength = in.firstInt();
      headerValueLength = in.secondInt();
      headerCommon = in.thirdInt();
      return headerCommon;
    }
    headerKeyLength = in.readCompressedInt("a key length");
    headerValueLength = in.readCompressedInt("a value length");
    headerCommon = in.readCompressedInt("a common prefix length");
    return headerCommon;
  }

  @Override
  void decodeBody(DecodedCell target, DecodedCell base) {
    int at = headerAt;
    int stored = headerKeyLength;
    int common = headerCommon;
    int baseLength = base == null ? 0 : base.keyLength();
    if (common > baseLength || stored > in.remaining()) {
      throw in.malformed(
          at,
          "a common prefix of at most "
              + baseLength
              + " bytes and at most "
              + in.remaining()
              + " stored key bytes",
          "common prefix " + common + ", stored " + stored);
    }
    int keyLength = common + stored;
    MemorySegment key = target.prepareKey(keyLength);
    if (common > 0 && target != base) {
      System.arraycopy(
          base.keyArray(),
          KeyValueLayout.KEY_OFFSET,
          target.keyArray(),
          KeyValueLayout.KEY_OFFSET,
          common);
    }
    in.copyTo(stored, target.keyArray(), KeyValueLayout.KEY_OFFSET + common, "key bytes");
    checkKey(target, at, keyLength, key);
    readValue(target, headerValueLength);
  }

  /**
   * Steps over the key of a cell that shares its row length with the one before: the scratch keeps
   * the key bytes the two share and the rest stays in the block, so the stored bytes are not copied
   * for a cell the seek only steps over. While keys follow that share no more than the unsettled
   * one's prefix, nothing is copied at all; one sharing more has the unsettled key settled first.
   */
  @Override
  boolean decodeKeyLazily(DecodedCell cell) {
    int common = headerCommon;
    int stored = headerKeyLength;
    if (common < KeyValueLayout.ROW_LENGTH_SIZE
        || common > cell.keyLength()
        || stored > in.remaining()) {
      return false;
    }
    settleBefore(common);
    int storedAt = in.require(stored, "key bytes");
    cell.prepareKey(common + stored);
    int rowLength = cell.rowLength();
    int familyLength =
        common > KeyValueLayout.ROW_LENGTH_SIZE + rowLength
            ? cell.familyLength()
            : storedFamilyLength(storedAt, rowLength, common);
    checkKey(cell, headerAt, common + stored, rowLength, familyLength);
    readValue(cell, headerValueLength);
    leaveKeyUnsettled(cell, storedAt, common);
    return true;
  }

  @Override
  void rebuildKey(DecodedCell cell, int common) {
    in.copyTo(
        cell.keyLength() - common,
        cell.keyArray(),
        KeyValueLayout.KEY_OFFSET + common,
        "key bytes");
  }

  /**
   * The family length byte of a key whose row length ({@code rowLength}) is the previous key's but
   * whose family length byte is among the bytes stored from {@code storedAt}; -1 when the key ends
   * before it.
   */
  private int storedFamilyLength(int storedAt, int rowLength, int common) {
    int at = storedAt + KeyValueLayout.ROW_LENGTH_SIZE + rowLength - common;
    return at < in.position()
        ? Byte.toUnsignedInt(in.segment().get(ValueLayout.JAVA_BYTE, at))
        : -1;
  }
}
