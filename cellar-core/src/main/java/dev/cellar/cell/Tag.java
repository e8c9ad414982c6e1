package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One HBase cell tag: a type byte and a value. Immutable and thread-safe: the value is copied in
 * and {@link #value()} returns a copy.
 *
 * <p>Serialized form (see {@link KeyValueLayout}): {@code tagLength u16 | type u8 | value}, where
 * {@code tagLength} counts the type byte and the value. A cell's tags section is its tags one after
 * another, prefixed by their total length.
 *
 * @param type the tag type (HBase reserves types for ACLs, visibility labels, TTLs and others)
 * @param value the tag value, at most {@value KeyValueLayout#MAX_TAG_VALUE_LENGTH} bytes
 */
public record Tag(byte type, byte[] value) {

  /**
   * Creates a tag.
   *
   * @throws IllegalArgumentException if the value is longer than {@value
   *     KeyValueLayout#MAX_TAG_VALUE_LENGTH} bytes
   */
  public Tag {
    if (value.length > KeyValueLayout.MAX_TAG_VALUE_LENGTH) {
      throw new IllegalArgumentException(
          "tag value length: expected at most "
              + KeyValueLayout.MAX_TAG_VALUE_LENGTH
              + ", found "
              + value.length);
    }
    value = value.clone();
  }

  /** Returns a copy of the value. */
  @Override
  public byte[] value() {
    return value.clone();
  }

  /** Returns the number of bytes this tag takes in a tags section. */
  public int serializedLength() {
    return KeyValueLayout.TAG_LENGTH_SIZE + KeyValueLayout.TAG_TYPE_SIZE + value.length;
  }

  /** Writes this tag at {@code offset}; returns the position after it. */
  long writeTo(MemorySegment segment, long offset) {
    int tagLength = KeyValueLayout.TAG_TYPE_SIZE + value.length;
    segment.set(KeyValueLayout.SHORT, offset, (short) tagLength);
    segment.set(KeyValueLayout.BYTE, offset + KeyValueLayout.TAG_LENGTH_SIZE, type);
    long valueOffset = offset + KeyValueLayout.TAG_LENGTH_SIZE + KeyValueLayout.TAG_TYPE_SIZE;
    MemorySegment.copy(value, 0, segment, KeyValueLayout.BYTE, valueOffset, value.length);
    return valueOffset + value.length;
  }

  /**
   * Decodes the tags of a tags section (without its leading tags length field).
   *
   * @throws IllegalArgumentException if a tag's length is zero or runs past the end of the section
   */
  public static List<Tag> decodeAll(MemorySegment segment, long offset, int length) {
    List<Tag> tags = new ArrayList<>();
    long end = offset + length;
    long position = offset;
    while (position < end) {
      int minimum = KeyValueLayout.TAG_LENGTH_SIZE + KeyValueLayout.TAG_TYPE_SIZE;
      if (end - position < minimum) {
        throw new IllegalArgumentException(
            "tag at offset "
                + position
                + ": expected at least "
                + minimum
                + " bytes before the end of the tags at "
                + end
                + ", found "
                + (end - position));
      }
      int tagLength = Short.toUnsignedInt(segment.get(KeyValueLayout.SHORT, position));
      long tagEnd = position + KeyValueLayout.TAG_LENGTH_SIZE + tagLength;
      if (tagLength < KeyValueLayout.TAG_TYPE_SIZE || tagEnd > end) {
        throw new IllegalArgumentException(
            "tag at offset "
                + position
                + ": expected a length between 1 and "
                + (end - position - KeyValueLayout.TAG_LENGTH_SIZE)
                + ", found "
                + tagLength);
      }
      byte type = segment.get(KeyValueLayout.BYTE, position + KeyValueLayout.TAG_LENGTH_SIZE);
      long valueOffset = position + KeyValueLayout.TAG_LENGTH_SIZE + KeyValueLayout.TAG_TYPE_SIZE;
      tags.add(new Tag(type, Bytes.copy(segment, valueOffset, (int) (tagEnd - valueOffset))));
      position = tagEnd;
    }
    return tags;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Tag that && type == that.type && Arrays.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return 31 * type + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "Tag[type=" + type + ", value=" + Bytes.toStringBinary(value) + "]";
  }
}
