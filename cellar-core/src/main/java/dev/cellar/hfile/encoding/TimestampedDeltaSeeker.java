package dev.cellar.hfile.encoding;

import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.DataBlockEncoding;

/**
 * What the DIFF and FAST_DIFF seekers share beyond {@link DeltaSeeker}: a key rebuilt from the
 * previous one up to its timestamp ({@link #readKeyBeforeTimestamp}), then a timestamp and type
 * derived from the previous cell's, so that a seek's walk can step over a cell's key bytes and
 * still decode its timestamp and type for the cells after it ({@link #decodeKeyLazily}). Not
 * thread-safe; one per reader thread, reused across blocks.
 */
abstract class TimestampedDeltaSeeker extends DeltaSeeker {

  TimestampedDeltaSeeker(EncodingContext context, DataBlockEncoding encoding) {
    super(context, encoding);
  }

  /**
   * Decodes the cell whose header was just read after {@code base} into {@code target}; {@code
   * lazily}, over {@code base} itself, steps over the key bytes before the timestamp ({@link
   * #skipKeyBeforeTimestamp}) instead of writing them.
   */
  abstract void decode(DecodedCell target, DecodedCell base, boolean lazily);

  /** Where the family lies in the block, and its length, for a key rebuilt over {@code cell}. */
  abstract int familyAt();

  abstract int familyLength(DecodedCell cell);

  @Override
  final void decodeBody(DecodedCell target, DecodedCell base) {
    decode(target, base, false);
  }

  @Override
  final boolean decodeKeyLazily(DecodedCell cell) {
    int common = headerCommon;
    if (common < KeyValueLayout.ROW_LENGTH_SIZE) {
      return false;
    }
    settleBefore(common);
    int storedAt = in.position();
    decode(cell, cell, true);
    leaveKeyUnsettled(cell, storedAt, common);
    return true;
  }

  @Override
  final void rebuildKey(DecodedCell cell, int common) {
    rebuildKeyBeforeTimestamp(cell, common, familyAt(), familyLength(cell));
  }
}
