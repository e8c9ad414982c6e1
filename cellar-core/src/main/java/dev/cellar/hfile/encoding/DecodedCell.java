package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One cell decoded from a delta-encoded block (PREFIX, DIFF, FAST_DIFF): its key rebuilt in a
 * scratch buffer of its own, its value a view into the block, its tags a view into the block or,
 * when dictionary-compressed, expanded into a second scratch buffer. Not thread-safe: a seeker owns
 * a few of these; it decodes a cell over its predecessor (only the bytes that differ are written)
 * or into a spare, and rotates them as current, previous and next cell.
 *
 * <p>The key scratch holds {@code keyLength | valueLength | key} in the KeyValue layout, so {@link
 * #segment()} and {@link #offset()} (always 0) describe the key exactly as for a contiguous cell;
 * {@link #valueSegment()} and {@link #tagsSegment()} point elsewhere. Scratch buffers only grow, so
 * once they fit the block's largest key and tags, decoding allocates nothing.
 */
final class DecodedCell implements Cell {

  private static final int INITIAL_KEY_CAPACITY = 256;

  private byte[] keyBytes = new byte[KeyValueLayout.KEY_OFFSET + INITIAL_KEY_CAPACITY];
  private MemorySegment keySegment = MemorySegment.ofArray(keyBytes);
  private byte[] tagBytes = new byte[0];
  private MemorySegment tagScratch = MemorySegment.ofArray(tagBytes);

  private int keyLength;
  private int valueLength;
  private int rowLength;
  private int familyLength;
  private boolean hasTagsSection;
  private int tagsLength;
  private MemorySegment valueSegment;
  private long valueOffset;
  private MemorySegment tagsSegment;
  private long tagsOffset;
  private long sequenceId;
  private int end;
  private int rowBytesShared = -1;

  /**
   * Makes room for a key of {@code length} bytes, keeping the key bytes already there (a cell may
   * be decoded in place over its predecessor). Returns the key scratch.
   */
  MemorySegment prepareKey(int length) {
    if (KeyValueLayout.KEY_OFFSET + length > keyBytes.length) {
      keyBytes =
          Arrays.copyOf(
              keyBytes, Math.max(KeyValueLayout.KEY_OFFSET + length, 2 * keyBytes.length));
      keySegment = MemorySegment.ofArray(keyBytes);
    }
    return keySegment;
  }

  /**
   * Returns the array behind the key scratch (what {@link #prepareKey} returned a view of), for
   * copies that are cheaper on arrays than on segments.
   */
  byte[] keyArray() {
    return keyBytes;
  }

  /** Makes room for {@code length} bytes of expanded tags; returns the tags scratch. */
  MemorySegment prepareTags(int length) {
    if (length > tagBytes.length) {
      tagBytes = Arrays.copyOf(tagBytes, Math.max(length, 2 * tagBytes.length));
      tagScratch = MemorySegment.ofArray(tagBytes);
    }
    return tagScratch;
  }

  /** Sets the key fields once the key bytes are in the scratch from {@link #keyOffset()}. */
  void setKey(int newKeyLength, int newRowLength, int newFamilyLength) {
    keyLength = newKeyLength;
    rowLength = newRowLength;
    familyLength = newFamilyLength;
    Bytes.putInt(keyBytes, KeyValueLayout.KEY_LENGTH_OFFSET, newKeyLength);
  }

  /** Sets the value, a view of {@code length} bytes of {@code segment} at {@code offset}. */
  void setValue(MemorySegment segment, long offset, int length) {
    valueSegment = segment;
    valueOffset = offset;
    valueLength = length;
    Bytes.putInt(keyBytes, KeyValueLayout.VALUE_LENGTH_OFFSET, length);
  }

  /**
   * Sets the tags: a view of {@code length} bytes of {@code segment}, or of the tags scratch after
   * {@link #prepareTags}. Without a tags section, pass {@code false} and length 0.
   */
  void setTags(boolean withSection, MemorySegment segment, long offset, int length) {
    hasTagsSection = withSection;
    tagsSegment = segment;
    tagsOffset = offset;
    tagsLength = length;
  }

  /** Sets the sequence id and the payload offset where the next cell starts. */
  void setEnd(long newSequenceId, int newEnd) {
    sequenceId = newSequenceId;
    end = newEnd;
  }

  /**
   * Records how many leading row bytes this cell shares with its predecessor, whose row has the
   * same length (the shared key prefix covers the row length): the whole row length when the two
   * cells are in one row; -1 where that is not known.
   */
  void setRowBytesShared(int count) {
    rowBytesShared = count;
  }

  /** Returns what {@link #setRowBytesShared} recorded. */
  int rowBytesShared() {
    return rowBytesShared;
  }

  /** Returns the payload offset right after this cell. */
  int end() {
    return end;
  }

  /** Makes this cell a key-only copy of {@code source}'s key (no value, no tags). */
  void copyKeyOf(DecodedCell source) {
    prepareKey(source.keyLength);
    System.arraycopy(
        source.keyBytes,
        KeyValueLayout.KEY_OFFSET,
        keyBytes,
        KeyValueLayout.KEY_OFFSET,
        source.keyLength);
    setKey(source.keyLength, source.rowLength, source.familyLength);
    keepKeyOnly(source.end);
  }

  /** Makes this cell key-only (no value, no tags), ending at payload offset {@code newEnd}. */
  void keepKeyOnly(int newEnd) {
    setValue(keySegment, KeyValueLayout.KEY_OFFSET + keyLength, 0);
    setTags(false, keySegment, KeyValueLayout.KEY_OFFSET + keyLength, 0);
    setEnd(0, newEnd);
  }

  /** The timestamp, read from the key scratch as an array (the next cell's decode needs it). */
  @Override
  public long timestamp() {
    return Bytes.toLong(
        keyBytes, (int) KeyValueLayout.timestampOffset(KeyValueLayout.KEY_OFFSET, keyLength));
  }

  /** The type byte, read from the key scratch as an array. */
  @Override
  public byte typeByte() {
    return keyBytes[(int) KeyValueLayout.typeOffset(KeyValueLayout.KEY_OFFSET, keyLength)];
  }

  @Override
  public MemorySegment segment() {
    return keySegment;
  }

  @Override
  public long offset() {
    return 0;
  }

  @Override
  public int length() {
    return (int) KeyValueLayout.cellLength(keyLength, valueLength, tagsLength, hasTagsSection);
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

  @Override
  public long keyOffset() {
    return KeyValueLayout.KEY_OFFSET;
  }

  @Override
  public MemorySegment valueSegment() {
    return valueSegment;
  }

  @Override
  public long valueOffset() {
    return valueOffset;
  }

  @Override
  public MemorySegment tagsSegment() {
    return tagsSegment;
  }

  @Override
  public long tagsOffset() {
    return tagsOffset;
  }

  @Override
  public String toString() {
    return keyLength == 0 ? "DecodedCell[unset]" : KeyValue.copyOf(this).toString();
  }
}
