package dev.cellar.cell;

import java.lang.foreign.MemorySegment;

/**
 * A cell whose key (and tags) were copied to the heap while its value stays a view of the memory
 * it was read from: what a read keeps of a cell decoded from a delta-encoded block, whose key the
 * decoder rebuilds in a scratch buffer it overwrites on its next move but whose value lies in the
 * block. The holder keeps the value's memory alive (a retained block). Immutable.
 *
 * <p>Layout of the heap copy: {@code keyLength | valueLength | key | tags}, the KeyValue layout
 * without its value, so {@link #segment()} and {@link #offset()} (0) describe the key exactly as
 * for a contiguous cell.
 */
public final class KeyCopyCell implements Cell {

  private final MemorySegment key;
  private final int keyLength;
  private final int valueLength;
  private final int rowLength;
  private final int familyLength;
  private final int tagsLength;
  private final boolean hasTagsSection;
  private final MemorySegment valueSegment;
  private final long valueOffset;
  private final long sequenceId;

  private KeyCopyCell(Cell cell) {
    this.keyLength = cell.keyLength();
    this.valueLength = cell.valueLength();
    this.rowLength = cell.rowLength();
    this.familyLength = cell.familyLength();
    this.tagsLength = cell.tagsLength();
    this.hasTagsSection =
        cell.length() > KeyValueLayout.KEY_OFFSET + keyLength + valueLength;
    int keyPart = KeyValueLayout.KEY_OFFSET + keyLength;
    byte[] bytes = new byte[keyPart + tagsLength];
    MemorySegment copy = MemorySegment.ofArray(bytes);
    MemorySegment.copy(cell.segment(), cell.offset(), copy, 0, keyPart);
    if (tagsLength > 0) {
      MemorySegment.copy(cell.tagsSegment(), cell.tagsOffset(), copy, keyPart, tagsLength);
    }
    this.key = copy;
    this.valueSegment = cell.valueSegment();
    this.valueOffset = cell.valueOffset();
    this.sequenceId = cell.sequenceId();
  }

  /** The key and tags of {@code cell} copied, its value still pointing where it points. */
  public static KeyCopyCell of(Cell cell) {
    return new KeyCopyCell(cell);
  }

  @Override
  public MemorySegment segment() {
    return key;
  }

  @Override
  public long offset() {
    return 0;
  }

  @Override
  public int length() {
    int length = KeyValueLayout.KEY_OFFSET + keyLength + valueLength;
    return hasTagsSection ? length + KeyValueLayout.TAGS_LENGTH_SIZE + tagsLength : length;
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
  public MemorySegment valueSegment() {
    return valueSegment;
  }

  @Override
  public long valueOffset() {
    return valueOffset;
  }

  @Override
  public MemorySegment tagsSegment() {
    return key;
  }

  @Override
  public long tagsOffset() {
    return KeyValueLayout.KEY_OFFSET + keyLength;
  }

  @Override
  public String toString() {
    return CellStrings.toString(this);
  }
}
