package dev.cellar.hfile.encoding;

import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;

/**
 * HBase's dictionary compression of a cell's tags ({@code TagCompressionContext}), used by PREFIX,
 * DIFF and FAST_DIFF blocks of files with compressed tags. Stateless and thread-safe; the state is
 * the caller's {@link TagDictionary}.
 *
 * <p>A tags section is a sequence of tags {@code [uint16 L][L bytes: type and value]}. Compressed,
 * each tag's {@code L} bytes become one of:
 *
 * <pre>
 *  0xFF  varint L  L bytes      not in the dictionary; writer and reader both add it
 *  int16 index                  a dictionary entry (0..126, so the first byte is never 0xFF)
 * </pre>
 *
 * The tags length written before the tags (a CINT) is the uncompressed length, 2-byte tag lengths
 * included; the reader expands tags until exactly that many bytes are produced.
 */
final class TagCompression {

  /** First byte of a tag that is not in the dictionary. */
  static final byte NOT_IN_DICTIONARY = (byte) 0xFF;

  private TagCompression() {}

  /**
   * Checks that the tags at {@code offset} are a sequence of whole tags.
   *
   * @throws IllegalArgumentException if a tag runs past the end of the tags
   */
  static void check(MemorySegment tags, long offset, int length) {
    long end = offset + length;
    long position = offset;
    while (position < end) {
      long valueAt = position + KeyValueLayout.TAG_LENGTH_SIZE;
      if (valueAt > end
          || Short.toUnsignedInt(tags.get(ByteLayouts.SHORT_BE, position)) > end - valueAt) {
        throw new IllegalArgumentException(
            "malformed tags: the tag at "
                + (position - offset)
                + " runs past the end of the tags at "
                + length);
      }
      position = valueAt + Short.toUnsignedInt(tags.get(ByteLayouts.SHORT_BE, position));
    }
  }

  /** Writes the tags at {@code offset}, {@link #check checked} to be whole, compressed. */
  static void compress(
      BlockOutput out, TagDictionary dictionary, MemorySegment tags, long offset, int length) {
    long end = offset + length;
    long position = offset;
    while (position < end) {
      int tagLength = Short.toUnsignedInt(tags.get(ByteLayouts.SHORT_BE, position));
      position += KeyValueLayout.TAG_LENGTH_SIZE;
      int index = dictionary.findOrAdd(tags, position, tagLength);
      if (index < 0) {
        out.writeByte(NOT_IN_DICTIONARY);
        out.writeCompressedInt(tagLength);
        out.write(tags, position, tagLength);
      } else {
        out.writeShort(index);
      }
      position += tagLength;
    }
  }

  /**
   * Reads compressed tags into {@code target} from position 0 until {@code length} bytes of
   * uncompressed tags are produced.
   *
   * @throws MalformedBlockException if an index names no entry or the tags overshoot {@code length}
   */
  static void decompress(
      PayloadReader in, TagDictionary dictionary, MemorySegment target, int length) {
    int produced = 0;
    while (produced < length) {
      int start = in.position();
      byte status = in.readByte("a compressed tag");
      int tagLength;
      long valueAt = produced + KeyValueLayout.TAG_LENGTH_SIZE;
      if (status == NOT_IN_DICTIONARY) {
        tagLength = in.readCompressedInt("a tag length");
        checkFits(in, start, produced, tagLength, length);
        int source = in.require(tagLength, "tag bytes");
        MemorySegment.copy(in.segment(), source, target, valueAt, tagLength);
        dictionary.add(target, valueAt, tagLength);
      } else {
        int index = (status << Byte.SIZE) | in.readUnsignedByte("a tag dictionary index");
        if (!dictionary.contains(index)) {
          throw in.malformed(
              start, "a tag dictionary index below " + dictionary.size(), "index " + index);
        }
        dictionary.use(index);
        tagLength = dictionary.length(index);
        checkFits(in, start, produced, tagLength, length);
        MemorySegment.copy(dictionary.entry(index), 0, target, valueAt, tagLength);
      }
      target.set(ByteLayouts.SHORT_BE, produced, (short) tagLength);
      produced += KeyValueLayout.TAG_LENGTH_SIZE + tagLength;
    }
  }

  private static void checkFits(
      PayloadReader in, int start, int produced, int tagLength, int length) {
    if ((long) produced + KeyValueLayout.TAG_LENGTH_SIZE + tagLength > length) {
      throw in.malformed(
          start,
          "a tag of at most " + (length - produced - KeyValueLayout.TAG_LENGTH_SIZE) + " bytes",
          "a tag of " + tagLength + " bytes");
    }
  }
}
