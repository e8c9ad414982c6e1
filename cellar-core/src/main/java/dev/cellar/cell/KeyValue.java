package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A cell on the Java heap, serialized into its own array in HBase's KeyValue layout: the cells
 * callers build (puts, deletes) and the key-only cells that seek to the start or end of a row or
 * column. Immutable and thread-safe.
 *
 * <p>The array is exactly what HBase's {@code KeyValue.getBuffer()} holds for the same cell, as
 * laid out in {@link KeyValueLayout}: {@code keyLength | valueLength | key | value}, followed by
 * {@code tagsLength | tags} only when the cell was built with at least one tag. The array is
 * private and never changes after construction, so {@link #segment()} may be shared freely; it is a
 * heap segment and stays valid as long as the cell is reachable.
 *
 * <p>The sequence id is not part of the serialization; {@link #withSequenceId} returns a cell
 * sharing the same array with another sequence id. {@link #equals} and {@link #hashCode} look at
 * the key only (row, family, qualifier, timestamp, type), as HBase's do: not at the value, the tags
 * or the sequence id.
 */
public final class KeyValue implements Cell {

  /** The timestamp meaning "now" to writers and "newest" to readers; sorts first. */
  public static final long LATEST_TIMESTAMP = Long.MAX_VALUE;

  /** The smallest timestamp; sorts last. */
  public static final long OLDEST_TIMESTAMP = Long.MIN_VALUE;

  /** The largest array the JVM reliably allocates. */
  private static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private final byte[] bytes;
  private final MemorySegment segment;
  private final int keyLength;
  private final int valueLength;
  private final int rowLength;
  private final int familyLength;
  private final int tagsLength;
  private final long sequenceId;

  private KeyValue(
      byte[] bytes,
      int keyLength,
      int valueLength,
      int rowLength,
      int familyLength,
      int tagsLength,
      long sequenceId) {
    this.bytes = bytes;
    this.segment = MemorySegment.ofArray(bytes);
    this.keyLength = keyLength;
    this.valueLength = valueLength;
    this.rowLength = rowLength;
    this.familyLength = familyLength;
    this.tagsLength = tagsLength;
    this.sequenceId = sequenceId;
  }

  /**
   * Builds a cell without tags, with sequence id 0.
   *
   * @throws IllegalArgumentException if the row is longer than {@value
   *     KeyValueLayout#MAX_ROW_LENGTH} bytes, the family longer than {@value
   *     KeyValueLayout#MAX_FAMILY_LENGTH}, or the whole cell too large for an array
   */
  public static KeyValue create(
      byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type, byte[] value) {
    return create(row, family, qualifier, timestamp, type, value, List.of());
  }

  /**
   * Builds a cell, with sequence id 0. With no tags the cell has no tags section at all, as in
   * HBase.
   *
   * @throws IllegalArgumentException if the row is longer than {@value
   *     KeyValueLayout#MAX_ROW_LENGTH} bytes, the family longer than {@value
   *     KeyValueLayout#MAX_FAMILY_LENGTH}, the serialized tags longer than {@value
   *     KeyValueLayout#MAX_TAGS_LENGTH}, or the whole cell too large for an array
   */
  public static KeyValue create(
      byte[] row,
      byte[] family,
      byte[] qualifier,
      long timestamp,
      CellType type,
      byte[] value,
      List<Tag> tags) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(qualifier, "qualifier");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    checkAtMost("row length", row.length, KeyValueLayout.MAX_ROW_LENGTH);
    checkAtMost("family length", family.length, KeyValueLayout.MAX_FAMILY_LENGTH);
    long tagsLength = 0;
    for (Tag tag : tags) {
      tagsLength += tag.serializedLength();
    }
    checkAtMost("tags length", tagsLength, KeyValueLayout.MAX_TAGS_LENGTH);
    long keyLength = KeyValueLayout.keyLength(row.length, family.length, qualifier.length);
    boolean withTags = !tags.isEmpty();
    long length = KeyValueLayout.cellLength(keyLength, value.length, (int) tagsLength, withTags);
    checkAtMost("KeyValue length", length, MAX_ARRAY_LENGTH);
    byte[] bytes = new byte[(int) length];
    write(MemorySegment.ofArray(bytes), row, family, qualifier, timestamp, type, value, tags);
    return new KeyValue(
        bytes, (int) keyLength, value.length, row.length, family.length, (int) tagsLength, 0);
  }

  /** Serializes a cell whose lengths were checked into {@code out}, which it fills exactly. */
  private static void write(
      MemorySegment out,
      byte[] row,
      byte[] family,
      byte[] qualifier,
      long timestamp,
      CellType type,
      byte[] value,
      List<Tag> tags) {
    int keyLength = (int) KeyValueLayout.keyLength(row.length, family.length, qualifier.length);
    out.set(KeyValueLayout.INT, KeyValueLayout.KEY_LENGTH_OFFSET, keyLength);
    out.set(KeyValueLayout.INT, KeyValueLayout.VALUE_LENGTH_OFFSET, value.length);
    long keyOffset = KeyValueLayout.keyOffset(0);
    out.set(KeyValueLayout.SHORT, keyOffset, (short) row.length);
    put(out, KeyValueLayout.rowOffset(keyOffset), row);
    long familyLengthOffset = KeyValueLayout.familyLengthOffset(keyOffset, row.length);
    out.set(KeyValueLayout.BYTE, familyLengthOffset, (byte) family.length);
    long familyOffset = KeyValueLayout.familyOffset(keyOffset, row.length);
    put(out, familyOffset, family);
    put(out, familyOffset + family.length, qualifier);
    out.set(KeyValueLayout.LONG, KeyValueLayout.timestampOffset(keyOffset, keyLength), timestamp);
    out.set(KeyValueLayout.BYTE, KeyValueLayout.typeOffset(keyOffset, keyLength), type.code());
    put(out, KeyValueLayout.valueOffset(0, keyLength), value);
    if (!tags.isEmpty()) {
      long tagsLengthOffset = KeyValueLayout.tagsLengthOffset(0, keyLength, value.length);
      long position = tagsLengthOffset + KeyValueLayout.TAGS_LENGTH_SIZE;
      for (Tag tag : tags) {
        position = tag.writeTo(out, position);
      }
      int tagsLength = (int) (position - tagsLengthOffset - KeyValueLayout.TAGS_LENGTH_SIZE);
      out.set(KeyValueLayout.SHORT, tagsLengthOffset, (short) tagsLength);
    }
  }

  private static void put(MemorySegment out, long offset, byte[] bytes) {
    MemorySegment.copy(bytes, 0, out, KeyValueLayout.BYTE, offset, bytes.length);
  }

  /**
   * Returns the key-only cell that sorts before every cell of {@code row}: empty family and
   * qualifier, {@link #LATEST_TIMESTAMP}, type {@link CellType#MAXIMUM}.
   */
  public static KeyValue firstOnRow(byte[] row) {
    return keyOnly(row, Bytes.EMPTY, Bytes.EMPTY, LATEST_TIMESTAMP, CellType.MAXIMUM);
  }

  /**
   * Returns the key-only cell that sorts after every cell of {@code row} and before the next row:
   * empty family and qualifier, {@link #LATEST_TIMESTAMP}, type {@link CellType#MINIMUM}. {@link
   * CellComparator} treats this combination specially, since no real column sorts last.
   */
  public static KeyValue lastOnRow(byte[] row) {
    return keyOnly(row, Bytes.EMPTY, Bytes.EMPTY, LATEST_TIMESTAMP, CellType.MINIMUM);
  }

  /**
   * Returns the key-only cell that sorts before every version of one column: {@link
   * #LATEST_TIMESTAMP}, type {@link CellType#MAXIMUM}.
   */
  public static KeyValue firstOnColumn(byte[] row, byte[] family, byte[] qualifier) {
    return keyOnly(row, family, qualifier, LATEST_TIMESTAMP, CellType.MAXIMUM);
  }

  /**
   * Returns the key-only cell that sorts after every version of one column: {@link
   * #OLDEST_TIMESTAMP}, type {@link CellType#MINIMUM}.
   */
  public static KeyValue lastOnColumn(byte[] row, byte[] family, byte[] qualifier) {
    return keyOnly(row, family, qualifier, OLDEST_TIMESTAMP, CellType.MINIMUM);
  }

  private static KeyValue keyOnly(
      byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type) {
    return create(row, family, qualifier, timestamp, type, Bytes.EMPTY);
  }

  /**
   * Returns a heap copy of any cell, with its sequence id and its tags section (if any). Use it to
   * keep a cell beyond the lifetime of the memory it was read from. The key, value and tags are
   * read from their own segments ({@link Cell#segment()}, {@link Cell#valueSegment()}, {@link
   * Cell#tagsSegment()}), so the source need not be contiguous. A {@code KeyValue} is returned as
   * it is, since it is immutable.
   */
  public static KeyValue copyOf(Cell cell) {
    if (cell instanceof KeyValue keyValue) {
      return keyValue;
    }
    byte[] bytes = new byte[cell.length()];
    writeTo(cell, MemorySegment.ofArray(bytes), 0);
    return new KeyValue(
        bytes,
        cell.keyLength(),
        cell.valueLength(),
        cell.rowLength(),
        cell.familyLength(),
        cell.tagsLength(),
        cell.sequenceId());
  }

  /**
   * Serializes any cell in the KeyValue layout into {@code out} at {@code offset}: its {@link
   * Cell#length()} bytes, with its tags section if it has one. The key, value and tags are read
   * from their own segments, so the source need not be contiguous; a contiguous source is copied in
   * one piece. The sequence id is not part of the serialization.
   *
   * @return the number of bytes written, {@link Cell#length()}
   * @throws IndexOutOfBoundsException if the cell does not fit in {@code out} at {@code offset}
   */
  public static int writeTo(Cell cell, MemorySegment out, long offset) {
    int length = cell.length();
    int keyLength = cell.keyLength();
    int valueLength = cell.valueLength();
    MemorySegment source = cell.segment();
    long valueOffset = KeyValueLayout.valueOffset(cell.offset(), keyLength);
    if (cell.valueSegment() == source
        && cell.valueOffset() == valueOffset
        && cell.tagsSegment() == source
        && cell.tagsOffset() == cell.offset() + length - cell.tagsLength()) {
      MemorySegment.copy(source, cell.offset(), out, offset, length);
      return length;
    }
    out.set(KeyValueLayout.INT, offset + KeyValueLayout.KEY_LENGTH_OFFSET, keyLength);
    out.set(KeyValueLayout.INT, offset + KeyValueLayout.VALUE_LENGTH_OFFSET, valueLength);
    MemorySegment.copy(source, cell.keyOffset(), out, KeyValueLayout.keyOffset(offset), keyLength);
    MemorySegment.copy(
        cell.valueSegment(),
        cell.valueOffset(),
        out,
        KeyValueLayout.valueOffset(offset, keyLength),
        valueLength);
    long tagsLengthOffset = KeyValueLayout.tagsLengthOffset(offset, keyLength, valueLength);
    if (offset + length > tagsLengthOffset) {
      out.set(KeyValueLayout.SHORT, tagsLengthOffset, (short) cell.tagsLength());
      MemorySegment.copy(
          cell.tagsSegment(),
          cell.tagsOffset(),
          out,
          tagsLengthOffset + KeyValueLayout.TAGS_LENGTH_SIZE,
          cell.tagsLength());
    }
    return length;
  }

  /**
   * Returns a heap copy of {@code cell} as {@link #copyOf(Cell)} does, except that a timestamp of
   * {@link #LATEST_TIMESTAMP} becomes {@code latestTimestamp} in the copy: how a write resolves
   * "now" (HBase's {@code updateLatestStamp}) without touching the cell it was given. A {@code
   * KeyValue} that needs no change is returned as it is.
   */
  public static KeyValue copyOf(Cell cell, long latestTimestamp) {
    if (cell instanceof KeyValue keyValue
        && (latestTimestamp == LATEST_TIMESTAMP || keyValue.timestamp() != LATEST_TIMESTAMP)) {
      return keyValue;
    }
    byte[] bytes = new byte[cell.length()];
    writeTo(cell, MemorySegment.ofArray(bytes), 0, latestTimestamp);
    return new KeyValue(
        bytes,
        cell.keyLength(),
        cell.valueLength(),
        cell.rowLength(),
        cell.familyLength(),
        cell.tagsLength(),
        cell.sequenceId());
  }

  /**
   * Serializes {@code cell} as {@link #writeTo(Cell, MemorySegment, long)} does, then writes {@code
   * latestTimestamp} over the copy's timestamp if that is {@link #LATEST_TIMESTAMP}.
   *
   * @return the number of bytes written, {@link Cell#length()}
   * @throws IndexOutOfBoundsException if the cell does not fit in {@code out} at {@code offset}
   */
  public static int writeTo(Cell cell, MemorySegment out, long offset, long latestTimestamp) {
    int length = writeTo(cell, out, offset);
    long timestampOffset =
        KeyValueLayout.timestampOffset(KeyValueLayout.keyOffset(offset), cell.keyLength());
    if (out.get(KeyValueLayout.LONG, timestampOffset) == LATEST_TIMESTAMP) {
      out.set(KeyValueLayout.LONG, timestampOffset, latestTimestamp);
    }
    return length;
  }

  /** Returns this cell with another sequence id; the two share their (immutable) bytes. */
  public KeyValue withSequenceId(long newSequenceId) {
    return new KeyValue(
        bytes, keyLength, valueLength, rowLength, familyLength, tagsLength, newSequenceId);
  }

  private static void checkAtMost(String what, long found, long maximum) {
    if (found > maximum) {
      throw new IllegalArgumentException(
          what + ": expected at most " + maximum + ", found " + found);
    }
  }

  @Override
  public MemorySegment segment() {
    return segment;
  }

  @Override
  public long offset() {
    return 0;
  }

  @Override
  public int length() {
    return bytes.length;
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

  /** Returns whether {@code other} is a {@code KeyValue} with the same key. */
  @Override
  public boolean equals(Object other) {
    return other instanceof KeyValue that
        && Bytes.equals(
            bytes,
            KeyValueLayout.KEY_OFFSET,
            keyLength,
            that.bytes,
            KeyValueLayout.KEY_OFFSET,
            that.keyLength);
  }

  /** Returns a hash of the key. */
  @Override
  public int hashCode() {
    return Bytes.murmurHash3(bytes, KeyValueLayout.KEY_OFFSET, keyLength, 0);
  }

  /**
   * Returns the cell as HBase prints a KeyValue: {@code
   * row/family:qualifier/timestamp/Type/vlen=N/seqid=S}, binary bytes escaped as {@code \xHH}.
   */
  @Override
  public String toString() {
    return CellStrings.toString(this);
  }
}
