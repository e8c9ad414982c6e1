package dev.cellar.hfile.encoding;

import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;

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
          base.keyArray(), KeyValueLayout.KEY_OFFSET, target.keyArray(), KeyValueLayout.KEY_OFFSET,
          common);
    }
    in.copyTo(stored, target.keyArray(), KeyValueLayout.KEY_OFFSET + common, "key bytes");
    checkKey(target, at, keyLength, key);
    readValue(target, headerValueLength);
  }
}
