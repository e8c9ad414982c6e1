package dev.cellar.row;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;

/**
 * A cell of {@link CollectedRow} whose key is a copy in the holder's arena and whose value and tags
 * are views of the block they lie in, which the holder pins: what a delta-encoded cell becomes, its
 * key rebuilt by the decoder but its value stored whole in the block. A mutable flyweight, reused
 * row after row; not thread-safe.
 *
 * <p>The arena holds {@code keyLength | valueLength | key} from {@link #offset()}, as the KeyValue
 * layout starts, so the key's positions are those of a contiguous cell; {@link #valueSegment()} and
 * {@link #tagsSegment()} point into the block. The lengths come from a cell the decoder checked, so
 * nothing is validated again.
 */
final class CopiedKeyCell implements Cell {

  private MemorySegment keySegment;
  private long offset;
  private int keyLength;
  private int valueLength;
  private int rowLength;
  private int familyLength;
  private int tagsLength;
  private boolean hasTagsSection;
  private MemorySegment valueSegment;
  private long valueOffset;
  private MemorySegment tagsSegment;
  private long tagsOffset;
  private long sequenceId;

  /**
   * Points this flyweight at the key copied at {@code keyAt} of {@code arena} (from its length
   * fields) and at {@code source}'s value and tags where they lie.
   */
  public void set(MemorySegment arena, long keyAt, Cell source, boolean withTagsSection) {
    keySegment = arena;
    offset = keyAt;
    keyLength = source.keyLength();
    valueLength = source.valueLength();
    rowLength = source.rowLength();
    familyLength = source.familyLength();
    tagsLength = source.tagsLength();
    hasTagsSection = withTagsSection;
    valueSegment = source.valueSegment();
    valueOffset = source.valueOffset();
    tagsSegment = source.tagsSegment();
    tagsOffset = source.tagsOffset();
    sequenceId = source.sequenceId();
  }

  @Override
  public MemorySegment segment() {
    return keySegment;
  }

  @Override
  public long offset() {
    return offset;
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
    return KeyValue.copyOf(this).toString();
  }
}
