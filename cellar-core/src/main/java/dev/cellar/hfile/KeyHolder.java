package dev.cellar.hfile;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A reusable copy of one cell's key, held as a key-only KeyValue (empty value, no tags), so the
 * writer can remember the previous cell and a block's first cell without copying values or
 * allocating per cell. Not thread-safe.
 */
final class KeyHolder {

  private byte[] bytes = new byte[256];
  private MemorySegment segment = MemorySegment.ofArray(bytes);
  private final KeyValueCell cell = new KeyValueCell();
  private boolean present;

  /** Copies {@code source}'s key (and sequence id). */
  void set(Cell source) {
    int keyLength = source.keyLength();
    int length = KeyValueLayout.KEY_OFFSET + keyLength;
    if (length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(length, bytes.length * 2));
      segment = MemorySegment.ofArray(bytes);
    }
    segment.set(ByteLayouts.INT_BE, 0, keyLength);
    segment.set(ByteLayouts.INT_BE, Integer.BYTES, 0);
    MemorySegment.copy(
        source.segment(), source.keyOffset(), segment, KeyValueLayout.KEY_OFFSET, keyLength);
    cell.reset(segment, 0, length, false, source.sequenceId());
    present = true;
  }

  /** Copies another holder's key. */
  void set(KeyHolder other) {
    set(other.cell);
  }

  boolean isPresent() {
    return present;
  }

  /** The held key as a cell (valid until the next {@link #set}). */
  Cell cell() {
    return cell;
  }

  /** A fresh copy of the serialized key. */
  byte[] keyBytes() {
    return Arrays.copyOfRange(
        bytes, KeyValueLayout.KEY_OFFSET, KeyValueLayout.KEY_OFFSET + cell.keyLength());
  }

  void clear() {
    present = false;
  }
}
