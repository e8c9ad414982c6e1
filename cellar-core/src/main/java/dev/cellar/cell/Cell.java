package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One cell (row, family, qualifier, timestamp, type, value, tags) in HBase's KeyValue layout
 * ({@link KeyValueLayout}). Implementations say whether they are thread-safe; the interface itself
 * holds no state.
 *
 * <p>Every position returned here is an absolute offset into the segment that holds the part, and
 * every length is in bytes. The key (its length fields included) always lives in {@link
 * #segment()}; the value lives in {@link #valueSegment()} and the tags in {@link #tagsSegment()},
 * which are the same segment, laid out contiguously after the key, unless the implementation keeps
 * them elsewhere: a cell decoded from a delta-encoded HFile block rebuilds its key in a scratch
 * buffer but leaves its value in the block. A caller reads the parts in place, for example {@code
 * Bytes.compare(cell.segment(), cell.rowOffset(), cell.rowLength(), ...)}, so that comparing,
 * hashing or copying a cell needs no intermediate array. The {@code ...Array()} methods are the
 * exception: each returns a fresh copy and is meant for tests, tools and the edges of the system,
 * not for the read path.
 *
 * <p>The segments may be off-heap memory owned by somebody else (a cached block): a cell is only
 * readable while that memory is alive, and the implementation's documentation says how long that
 * is.
 *
 * <p>Implementations supply the serialized range and the handful of lengths the layout cannot give
 * by position ({@link #keyLength}, {@link #valueLength}, {@link #rowLength}, {@link #familyLength},
 * {@link #tagsLength}); the default methods derive every other position from them, assuming the
 * contiguous layout. An implementation whose value or tags live elsewhere overrides {@link
 * #valueSegment}, {@link #valueOffset}, {@link #tagsSegment} and {@link #tagsOffset} together.
 */
public interface Cell {

  /** Returns the memory holding this cell's key (and, by default, its value and tags). */
  MemorySegment segment();

  /** Returns the position of the first byte of this cell's serialization (its key length). */
  long offset();

  /**
   * Returns the serialized length of this cell in the KeyValue layout, including its tags section
   * if it has one: {@code 8 + keyLength + valueLength}, plus {@code 2 + tagsLength} with a tags
   * section. This is the cell's extent in {@link #segment()} only when its parts are contiguous.
   */
  int length();

  /** Returns the length of the key: row, family, qualifier, timestamp, type and their lengths. */
  int keyLength();

  /** Returns the length of the value. */
  int valueLength();

  /** Returns the length of the row. */
  int rowLength();

  /** Returns the length of the family. */
  int familyLength();

  /** Returns the length of the tags, not counting the tags length field; 0 without tags. */
  int tagsLength();

  /**
   * Returns the sequence id (memstore timestamp, MVCC write number) of this cell. It is not part of
   * the serialized key; among cells with equal keys, the larger sequence id sorts first.
   */
  long sequenceId();

  /** Returns the position of the key. */
  default long keyOffset() {
    return KeyValueLayout.keyOffset(offset());
  }

  /** Returns the position of the row. */
  default long rowOffset() {
    return KeyValueLayout.rowOffset(keyOffset());
  }

  /** Returns the position of the family. */
  default long familyOffset() {
    return KeyValueLayout.familyOffset(keyOffset(), rowLength());
  }

  /** Returns the position of the qualifier, right after the family. */
  default long qualifierOffset() {
    return familyOffset() + familyLength();
  }

  /** Returns the length of the qualifier. */
  default int qualifierLength() {
    return KeyValueLayout.qualifierLength(keyLength(), rowLength(), familyLength());
  }

  /** Returns the timestamp. */
  default long timestamp() {
    return KeyValueLayout.timestamp(segment(), keyOffset(), keyLength());
  }

  /** Returns the type code as stored in the key. */
  default byte typeByte() {
    return KeyValueLayout.typeByte(segment(), keyOffset(), keyLength());
  }

  /**
   * Returns the type.
   *
   * @throws IllegalArgumentException if the stored type code is not one of HBase's
   */
  default CellType type() {
    return CellType.fromCode(typeByte());
  }

  /** Returns the memory holding the value; {@link #segment()} unless the value lives elsewhere. */
  default MemorySegment valueSegment() {
    return segment();
  }

  /** Returns the position of the value in {@link #valueSegment()}. */
  default long valueOffset() {
    return KeyValueLayout.valueOffset(offset(), keyLength());
  }

  /** Returns the memory holding the tags; {@link #segment()} unless the tags live elsewhere. */
  default MemorySegment tagsSegment() {
    return segment();
  }

  /**
   * Returns the position of the tags in {@link #tagsSegment()} (by default the end of the cell when
   * it has none).
   */
  default long tagsOffset() {
    return offset() + length() - tagsLength();
  }

  /** Returns a new array holding a copy of the row. */
  default byte[] rowArray() {
    return Bytes.copy(segment(), rowOffset(), rowLength());
  }

  /** Returns a new array holding a copy of the family. */
  default byte[] familyArray() {
    return Bytes.copy(segment(), familyOffset(), familyLength());
  }

  /** Returns a new array holding a copy of the qualifier. */
  default byte[] qualifierArray() {
    return Bytes.copy(segment(), qualifierOffset(), qualifierLength());
  }

  /** Returns a new array holding a copy of the value. */
  default byte[] valueArray() {
    return Bytes.copy(valueSegment(), valueOffset(), valueLength());
  }

  /** Returns a new array holding a copy of the tags section's tags (without its length field). */
  default byte[] tagsArray() {
    return Bytes.copy(tagsSegment(), tagsOffset(), tagsLength());
  }

  /**
   * Returns the tags, decoded into new objects.
   *
   * @throws IllegalArgumentException if the tags section is malformed
   */
  default List<Tag> tags() {
    return Tag.decodeAll(tagsSegment(), tagsOffset(), tagsLength());
  }
}
