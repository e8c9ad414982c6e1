package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The byte layout of one HBase KeyValue: every size, offset and {@link ValueLayout} that code
 * reading or writing a serialized cell needs. Stateless and thread-safe.
 *
 * <p>All integers are big-endian and unaligned. Offsets below are relative to the first byte of the
 * cell; {@code K} is the key length, {@code V} the value length, {@code R} the row length, {@code
 * F} the family length, {@code T} the tags length.
 *
 * <pre>
 *  cell:
 *  0          4            8                 8+K             8+K+V          8+K+V+2
 *  +----------+------------+-----------------+---------------+--------------+----------+
 *  | keyLength| valueLength| key (K bytes)   | value (V)     | tagsLength   | tags (T) |
 *  | int      | int        |                 |               | u16          |          |
 *  +----------+------------+-----------------+---------------+--------------+----------+
 *                                                            |&lt;-- only when the cell has a
 *                                                                tags section (HFile v3 with
 *                                                                tags, or a KeyValue built
 *                                                                with at least one tag) --&gt;|
 *  key (offsets relative to the key):
 *  0          2            2+R           3+R          3+R+F                K-9         K-1
 *  +----------+------------+-------------+------------+--------------------+-----------+------+
 *  | rowLength| row (R)    | familyLength| family (F) | qualifier          | timestamp | type |
 *  | s16      |            | s8          |            | (K - 12 - R - F)   | s64       | u8   |
 *  +----------+------------+-------------+------------+--------------------+-----------+------+
 *
 *  tags: a sequence of tags, each
 *  +-----------+------+--------------------+
 *  | tagLength | type | value              |
 *  | u16       | u8   | (tagLength - 1)    |
 *  +-----------+------+--------------------+
 * </pre>
 *
 * <p>The qualifier has no length of its own: it is what is left of the key. The tags length counts
 * only the tags, not its own two bytes, and a tag's length counts its type byte. An HFile writer
 * appends the cell's memstore timestamp after this layout as a Hadoop vlong when the file includes
 * MVCC; that trailer is not part of the cell.
 *
 * <p>Limits (HBase's): row length at most {@value #MAX_ROW_LENGTH}, family length at most {@value
 * #MAX_FAMILY_LENGTH}, tags length at most {@value #MAX_TAGS_LENGTH}, one tag's value at most
 * {@value #MAX_TAG_VALUE_LENGTH} bytes.
 */
public final class KeyValueLayout {

  /** Big-endian unaligned {@code short}: row length, tags length, tag length. */
  public static final ValueLayout.OfShort SHORT =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** Big-endian unaligned {@code int}: key length and value length. */
  public static final ValueLayout.OfInt INT =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** Big-endian unaligned {@code long}: the timestamp. */
  public static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** A single byte: family length, type, tag type. */
  public static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

  /** Offset of the key length field in a cell. */
  public static final int KEY_LENGTH_OFFSET = 0;

  /** Offset of the value length field in a cell. */
  public static final int VALUE_LENGTH_OFFSET = Integer.BYTES;

  /** Offset of the key in a cell: the size of the two length fields in front of it. */
  public static final int KEY_OFFSET = 2 * Integer.BYTES;

  /** Size of the row length field. */
  public static final int ROW_LENGTH_SIZE = Short.BYTES;

  /** Size of the family length field. */
  public static final int FAMILY_LENGTH_SIZE = Byte.BYTES;

  /** Size of the timestamp field. */
  public static final int TIMESTAMP_SIZE = Long.BYTES;

  /** Size of the type field. */
  public static final int TYPE_SIZE = Byte.BYTES;

  /** Bytes of a key that are not row, family or qualifier: the smallest possible key length. */
  public static final int KEY_INFRASTRUCTURE_SIZE =
      ROW_LENGTH_SIZE + FAMILY_LENGTH_SIZE + TIMESTAMP_SIZE + TYPE_SIZE;

  /** Size of the tags length field that opens a tags section. */
  public static final int TAGS_LENGTH_SIZE = Short.BYTES;

  /** Size of the length field of one tag. */
  public static final int TAG_LENGTH_SIZE = Short.BYTES;

  /** Size of the type field of one tag. */
  public static final int TAG_TYPE_SIZE = Byte.BYTES;

  /** Largest row length: the field is a signed short. */
  public static final int MAX_ROW_LENGTH = Short.MAX_VALUE;

  /** Largest family length: the field is a signed byte. */
  public static final int MAX_FAMILY_LENGTH = Byte.MAX_VALUE;

  /** Largest tags length: the field is an unsigned short. */
  public static final int MAX_TAGS_LENGTH = 0xFFFF;

  /** Largest value of one tag: HBase caps a tag's length (type byte plus value) at 65533. */
  public static final int MAX_TAG_VALUE_LENGTH = MAX_TAGS_LENGTH - TAG_LENGTH_SIZE - TAG_TYPE_SIZE;

  private KeyValueLayout() {}

  /** Returns the key length of the cell at {@code cellOffset}. */
  public static int keyLength(MemorySegment segment, long cellOffset) {
    return segment.get(INT, cellOffset + KEY_LENGTH_OFFSET);
  }

  /** Returns the value length of the cell at {@code cellOffset}. */
  public static int valueLength(MemorySegment segment, long cellOffset) {
    return segment.get(INT, cellOffset + VALUE_LENGTH_OFFSET);
  }

  /** Returns the position of the key of the cell at {@code cellOffset}. */
  public static long keyOffset(long cellOffset) {
    return cellOffset + KEY_OFFSET;
  }

  /** Returns the position of the value of the cell at {@code cellOffset}. */
  public static long valueOffset(long cellOffset, int keyLength) {
    return cellOffset + KEY_OFFSET + keyLength;
  }

  /** Returns the position of the tags length field, right after the value. */
  public static long tagsLengthOffset(long cellOffset, int keyLength, int valueLength) {
    return valueOffset(cellOffset, keyLength) + valueLength;
  }

  /** Returns the tags length stored at {@code tagsLengthOffset}, read as unsigned. */
  public static int tagsLength(MemorySegment segment, long tagsLengthOffset) {
    return Short.toUnsignedInt(segment.get(SHORT, tagsLengthOffset));
  }

  /** Returns the row length of the key at {@code keyOffset}, as HBase reads it (signed). */
  public static int rowLength(MemorySegment segment, long keyOffset) {
    return segment.get(SHORT, keyOffset);
  }

  /** Returns the position of the row of the key at {@code keyOffset}. */
  public static long rowOffset(long keyOffset) {
    return keyOffset + ROW_LENGTH_SIZE;
  }

  /** Returns the position of the family length field of the key at {@code keyOffset}. */
  public static long familyLengthOffset(long keyOffset, int rowLength) {
    return keyOffset + ROW_LENGTH_SIZE + rowLength;
  }

  /** Returns the family length stored at {@code familyLengthOffset}, read as unsigned. */
  public static int familyLength(MemorySegment segment, long familyLengthOffset) {
    return Byte.toUnsignedInt(segment.get(BYTE, familyLengthOffset));
  }

  /** Returns the position of the family of the key at {@code keyOffset}. */
  public static long familyOffset(long keyOffset, int rowLength) {
    return familyLengthOffset(keyOffset, rowLength) + FAMILY_LENGTH_SIZE;
  }

  /** Returns the qualifier length of a key: what the other fields leave of it. */
  public static int qualifierLength(int keyLength, int rowLength, int familyLength) {
    return keyLength - KEY_INFRASTRUCTURE_SIZE - rowLength - familyLength;
  }

  /** Returns the position of the timestamp of the key at {@code keyOffset}. */
  public static long timestampOffset(long keyOffset, int keyLength) {
    return keyOffset + keyLength - TIMESTAMP_SIZE - TYPE_SIZE;
  }

  /** Returns the timestamp of the key at {@code keyOffset}. */
  public static long timestamp(MemorySegment segment, long keyOffset, int keyLength) {
    return segment.get(LONG, timestampOffset(keyOffset, keyLength));
  }

  /** Returns the position of the type byte of the key at {@code keyOffset}. */
  public static long typeOffset(long keyOffset, int keyLength) {
    return keyOffset + keyLength - TYPE_SIZE;
  }

  /** Returns the type byte of the key at {@code keyOffset}. */
  public static byte typeByte(MemorySegment segment, long keyOffset, int keyLength) {
    return segment.get(BYTE, typeOffset(keyOffset, keyLength));
  }

  /** Returns the length of a key with the given row, family and qualifier lengths. */
  public static long keyLength(int rowLength, int familyLength, int qualifierLength) {
    return (long) KEY_INFRASTRUCTURE_SIZE + rowLength + familyLength + qualifierLength;
  }

  /**
   * Returns the serialized length of a cell.
   *
   * @param withTagsSection whether the cell carries a tags length field (and {@code tagsLength}
   *     bytes of tags); a cell without one must have {@code tagsLength == 0}
   */
  public static long cellLength(
      long keyLength, int valueLength, int tagsLength, boolean withTagsSection) {
    long length = KEY_OFFSET + keyLength + valueLength;
    return withTagsSection ? length + TAGS_LENGTH_SIZE + tagsLength : length;
  }
}
