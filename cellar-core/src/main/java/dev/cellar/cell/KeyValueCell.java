package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A {@link Cell} read in place from memory that already holds a serialized KeyValue: a view, not a
 * copy. Not thread-safe: an instance is either built once for one cell or reused as a flyweight by
 * one cursor, which {@link #reset}s it for every cell it visits so that iterating allocates
 * nothing.
 *
 * <p><b>Lifetime.</b> The view holds no reference count and no copy. It is readable only while the
 * memory it points into is alive and unchanged; whoever owns that memory (a block cursor holding a
 * block reference, say) must keep it alive for as long as the cell is used. A view into memory that
 * has since been freed fails with the exception of the segment's arena, never with wrong data; a
 * view into memory that has been recycled is the owner's bug.
 *
 * <p><b>Validation.</b> The bytes may come from disk, so {@link #reset} checks every length against
 * the range it was given before accepting it: key and value lengths, row and family lengths within
 * the key, and the tags section. Anything inconsistent throws {@link IllegalArgumentException}
 * naming the offset, what was expected and what was found. The type code is not checked here;
 * {@link #type()} rejects unknown codes when asked.
 *
 * <p><b>Cost.</b> A reset reads four length fields (key, value, row, family; and the tags length
 * when the cell has a tags section) and keeps them; every other position is arithmetic on those,
 * and the timestamp and type are read only when asked for.
 */
public final class KeyValueCell implements Cell {

  private MemorySegment segment;
  private long offset;
  private int length;
  private int keyLength;
  private int valueLength;
  private int rowLength;
  private int familyLength;
  private int tagsLength;
  private long sequenceId;

  /** Creates an empty flyweight; {@link #reset} it before reading from it. */
  public KeyValueCell() {}

  /**
   * Creates a view of the cell serialized at {@code offset}.
   *
   * @see #reset
   */
  public KeyValueCell(
      MemorySegment segment, long offset, int length, boolean hasTags, long sequenceId) {
    reset(segment, offset, length, hasTags, sequenceId);
  }

  /**
   * Points this view at the cell serialized at {@code offset}, after validating its lengths. On
   * failure the view is left unchanged.
   *
   * @param segment the memory holding the cell
   * @param offset the position of the cell's key length field
   * @param length the cell's serialized length: key and value with their length fields, plus the
   *     tags section if {@code hasTags}; not the memstore timestamp an HFile may write after it
   * @param hasTags whether a tags length field (and tags) follows the value, as in HFile v3 blocks
   *     of files that include tags; its tags length may be 0
   * @param sequenceId the cell's sequence id, which is not part of the serialization
   * @return this view
   * @throws IllegalArgumentException if the range lies outside the segment or the lengths it holds
   *     are inconsistent
   */
  public KeyValueCell reset(
      MemorySegment segment, long offset, int length, boolean hasTags, long sequenceId) {
    checkRange(segment, offset, length);
    return validate(
        segment,
        offset,
        length,
        KeyValueLayout.keyLength(segment, offset),
        KeyValueLayout.valueLength(segment, offset),
        hasTags,
        sequenceId);
  }

  /**
   * As {@link #reset(MemorySegment, long, int, boolean, long)}, for a caller that has just read the
   * key and value lengths stored at {@code offset} (a block cursor checking a cell's extent): they
   * are taken as given, not read again, and validated as that method validates them.
   *
   * @param keyLength the key length stored at {@code offset}
   * @param valueLength the value length stored after it
   */
  public KeyValueCell reset(
      MemorySegment segment,
      long offset,
      int length,
      int keyLength,
      int valueLength,
      boolean hasTags,
      long sequenceId) {
    checkRange(segment, offset, length);
    return validate(segment, offset, length, keyLength, valueLength, hasTags, sequenceId);
  }

  private static void checkRange(MemorySegment segment, long offset, int length) {
    Objects.requireNonNull(segment, "segment");
    if (offset < 0 || length < 0 || offset > segment.byteSize() - length) {
      throw malformed(
          offset,
          "a range within the segment of " + segment.byteSize() + " bytes",
          "length " + length);
    }
    if (length < KeyValueLayout.KEY_OFFSET) {
      throw malformed(
          offset,
          "at least " + KeyValueLayout.KEY_OFFSET + " bytes of lengths",
          "length " + length);
    }
  }

  /**
   * Checks the lengths within the cell's range and, if they hold, points this view at it. Kept
   * small enough to be inlined into a cursor's step: a failure is described by {@link #invalid}.
   */
  private KeyValueCell validate(
      MemorySegment segment,
      long offset,
      int length,
      int newKeyLength,
      int newValueLength,
      boolean hasTags,
      long sequenceId) {
    long available = length - KeyValueLayout.KEY_OFFSET;
    if (newKeyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
        || newKeyLength > available
        || newValueLength < 0
        || newValueLength > available - newKeyLength) {
      throw invalid(segment, offset, length, newKeyLength, newValueLength, hasTags);
    }
    long keyOffset = KeyValueLayout.keyOffset(offset);
    int newRowLength = KeyValueLayout.rowLength(segment, keyOffset);
    int maxRowLength = newKeyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
    if (newRowLength < 0 || newRowLength > maxRowLength) {
      throw invalid(segment, offset, length, newKeyLength, newValueLength, hasTags);
    }
    int newFamilyLength =
        KeyValueLayout.familyLength(
            segment, KeyValueLayout.familyLengthOffset(keyOffset, newRowLength));
    if (newFamilyLength > Math.min(KeyValueLayout.MAX_FAMILY_LENGTH, maxRowLength - newRowLength)) {
      throw invalid(segment, offset, length, newKeyLength, newValueLength, hasTags);
    }
    int newTagsLength = 0;
    if (hasTags) {
      if (length - KeyValueLayout.cellLength(newKeyLength, newValueLength, 0, false)
          < KeyValueLayout.TAGS_LENGTH_SIZE) {
        throw invalid(segment, offset, length, newKeyLength, newValueLength, hasTags);
      }
      newTagsLength =
          KeyValueLayout.tagsLength(
              segment, KeyValueLayout.tagsLengthOffset(offset, newKeyLength, newValueLength));
    }
    if (KeyValueLayout.cellLength(newKeyLength, newValueLength, newTagsLength, hasTags) != length) {
      throw invalid(segment, offset, length, newKeyLength, newValueLength, hasTags);
    }
    this.segment = segment;
    this.offset = offset;
    this.length = length;
    this.keyLength = newKeyLength;
    this.valueLength = newValueLength;
    this.rowLength = newRowLength;
    this.familyLength = newFamilyLength;
    this.tagsLength = newTagsLength;
    this.sequenceId = sequenceId;
    return this;
  }

  /**
   * A new view of the same cell (the lengths already validated), for a holder that keeps the cell
   * while this flyweight moves on.
   */
  public KeyValueCell duplicate() {
    return new KeyValueCell().set(this);
  }

  /**
   * Points this view at the cell {@code other} views (its lengths validated already), for a holder
   * that keeps the cell in a flyweight of its own while {@code other} moves on.
   *
   * @return this view
   */
  public KeyValueCell set(KeyValueCell other) {
    segment = other.segment;
    offset = other.offset;
    length = other.length;
    keyLength = other.keyLength;
    valueLength = other.valueLength;
    rowLength = other.rowLength;
    familyLength = other.familyLength;
    tagsLength = other.tagsLength;
    sequenceId = other.sequenceId;
    return this;
  }

  /**
   * The failure of {@link #validate} on these lengths, naming the first one that does not hold: the
   * checks again, in order, off the hot path.
   */
  private static IllegalArgumentException invalid(
      MemorySegment segment,
      long offset,
      int length,
      int keyLength,
      int valueLength,
      boolean hasTags) {
    long available = length - KeyValueLayout.KEY_OFFSET;
    if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE || keyLength > available) {
      return malformed(
          offset,
          "a key length between " + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE + " and " + available,
          "key length " + keyLength);
    }
    if (valueLength < 0 || valueLength > available - keyLength) {
      return malformed(
          offset,
          "a value length between 0 and " + (available - keyLength),
          "value length " + valueLength);
    }
    long keyOffset = KeyValueLayout.keyOffset(offset);
    int rowLength = KeyValueLayout.rowLength(segment, keyOffset);
    int maxRowLength = keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
    if (rowLength < 0 || rowLength > maxRowLength) {
      return malformed(
          offset, "a row length between 0 and " + maxRowLength, "row length " + rowLength);
    }
    int familyLength =
        KeyValueLayout.familyLength(
            segment, KeyValueLayout.familyLengthOffset(keyOffset, rowLength));
    int maxFamilyLength = Math.min(KeyValueLayout.MAX_FAMILY_LENGTH, maxRowLength - rowLength);
    if (familyLength > maxFamilyLength) {
      return malformed(
          offset,
          "a family length between 0 and " + maxFamilyLength,
          "family length " + familyLength);
    }
    int tagsLength = 0;
    long withoutTags = KeyValueLayout.cellLength(keyLength, valueLength, 0, false);
    if (hasTags) {
      if (length - withoutTags < KeyValueLayout.TAGS_LENGTH_SIZE) {
        return malformed(
            offset,
            "a tags length field after the value, cell length at least "
                + (withoutTags + KeyValueLayout.TAGS_LENGTH_SIZE),
            "length " + length);
      }
      tagsLength =
          KeyValueLayout.tagsLength(
              segment, KeyValueLayout.tagsLengthOffset(offset, keyLength, valueLength));
    }
    long expected = KeyValueLayout.cellLength(keyLength, valueLength, tagsLength, hasTags);
    return malformed(
        offset,
        "length "
            + expected
            + " (key "
            + keyLength
            + ", value "
            + valueLength
            + (hasTags ? ", tags " + tagsLength : ", no tags")
            + ")",
        "length " + length);
  }

  private static IllegalArgumentException malformed(long offset, String expected, String found) {
    return new IllegalArgumentException(
        "malformed KeyValue at offset " + offset + ": expected " + expected + ", found " + found);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException if this flyweight was never reset
   */
  @Override
  public MemorySegment segment() {
    if (segment == null) {
      throw new IllegalStateException("KeyValueCell read before reset(...) pointed it at a cell");
    }
    return segment;
  }

  @Override
  public long offset() {
    return offset;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public int keyLength() {
    return keyLength;
  }

  @Override
  public int valueLength() {
    return valueLength;
  }

  @Override
  public int rowLength() {
    return rowLength;
  }

  @Override
  public int familyLength() {
    return familyLength;
  }

  @Override
  public int tagsLength() {
    return tagsLength;
  }

  @Override
  public long sequenceId() {
    return sequenceId;
  }

  /** Returns the cell as HBase prints a KeyValue; see {@link KeyValue#toString()}. */
  @Override
  public String toString() {
    return segment == null ? "KeyValueCell[unset]" : CellStrings.toString(this);
  }
}
