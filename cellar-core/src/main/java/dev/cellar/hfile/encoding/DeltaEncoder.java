package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.schema.DataBlockEncoding;

/**
 * What PREFIX, DIFF and FAST_DIFF encoders share: the payload header, the per-cell suffix, the
 * previous cell's key, tag compression and the size accounting. Not thread-safe; one per file
 * writer, reused for every block.
 *
 * <p>Layout common to the three encodings (block type ENCODED_DATA):
 *
 * <pre>
 *  int16  encoding id              (PREFIX 2, DIFF 3, FAST_DIFF 4)
 *  int32  unencodedDataSize        sum of the cells' {@link PlainCellFormat} sizes, filled in last
 *         [encoding-specific block preamble]   (DIFF: the family)
 *         cells, each: [encoding-specific part: lengths, key delta, value]
 *                      [CINT tagsLength, tags raw or {@link TagCompression compressed}]  with tags
 *                      [vlong mvcc]                                                      with mvcc
 * </pre>
 *
 * Every block stands alone: the first cell is encoded against no previous cell, and the tag
 * dictionary is cleared at the block start. All cells of a block must have one family, as in every
 * HFile; the encoders check it, because a second family would be silently lost. The encoded size
 * excludes the id and the size field.
 */
abstract class DeltaEncoder implements BlockEncoder {

  /** Position of the unencoded data size in the payload. */
  static final int UNENCODED_SIZE_OFFSET = Encodings.ID_OFFSET + DataBlockEncoding.ID_SIZE;

  /** Position of whatever follows the header: the preamble or the first cell. */
  static final int HEADER_SIZE = UNENCODED_SIZE_OFFSET + Integer.BYTES;

  /** Mask of the unsigned bits of a byte. */
  static final int BYTE_MASK = 0xFF;

  protected final BlockOutput out = new BlockOutput();
  protected final PreviousKey previous = new PreviousKey();
  private final EncodingContext context;
  private final DataBlockEncoding encoding;
  private final TagDictionary tagDictionary;
  private int previousValueLength;
  private int cellCount;
  private int unencodedSize;

  DeltaEncoder(EncodingContext context, DataBlockEncoding encoding) {
    this.context = context;
    this.encoding = encoding;
    this.tagDictionary = context.dictionaryCompressesTags() ? new TagDictionary() : null;
  }

  @Override
  public final void append(Cell cell) {
    int size = PlainCellFormat.size(cell, context);
    if (tagDictionary != null) {
      TagCompression.check(cell.tagsSegment(), cell.tagsOffset(), cell.tagsLength());
    }
    if (cellCount == 0) {
      out.writeShort(encoding.id());
      out.writeInt(0);
      if (tagDictionary != null) {
        tagDictionary.clear();
      }
      encodeFirst(cell);
    } else {
      if (!previous.sameFamily(cell)) {
        throw new IllegalArgumentException(
            "a data block holds one family: expected '"
                + previous.familyString()
                + "', found cell "
                + cell);
      }
      encodeNext(cell);
    }
    writeTagsAndMvcc(cell);
    previous.set(cell);
    previousValueLength = cell.valueLength();
    unencodedSize += size;
    cellCount++;
  }

  /** Writes the block preamble, if any, and the first cell's part before its tags. */
  abstract void encodeFirst(Cell cell);

  /** Writes a later cell's part before its tags, against {@link #previous}. */
  abstract void encodeNext(Cell cell);

  /** Returns the value length of the cell appended last. */
  final int previousValueLength() {
    return previousValueLength;
  }

  /**
   * Writes the part of a key that DIFF and FAST_DIFF store after the common prefix {@code common}:
   * when the rows differ, the unshared part of the row (with what is unshared of its length) and
   * the whole qualifier; when the row is shared, the unshared part of the qualifier. The family is
   * never written again.
   */
  final void writeKeyRemainder(Cell cell, int common) {
    int rowLength = cell.rowLength();
    if (common < KeyValueLayout.ROW_LENGTH_SIZE + rowLength) {
      if (common == 0) {
        out.writeShort(rowLength);
      } else if (common == 1) {
        out.writeByte(rowLength & BYTE_MASK);
      }
      int rowCommon = Math.max(0, common - KeyValueLayout.ROW_LENGTH_SIZE);
      out.write(cell.segment(), cell.rowOffset() + rowCommon, rowLength - rowCommon);
      out.write(cell.segment(), cell.qualifierOffset(), cell.qualifierLength());
    } else {
      int qualifierCommon =
          common
              - KeyValueLayout.ROW_LENGTH_SIZE
              - rowLength
              - KeyValueLayout.FAMILY_LENGTH_SIZE
              - cell.familyLength();
      out.write(
          cell.segment(),
          cell.qualifierOffset() + qualifierCommon,
          cell.qualifierLength() - qualifierCommon);
    }
  }

  private void writeTagsAndMvcc(Cell cell) {
    if (context.includesTags()) {
      int tagsLength = cell.tagsLength();
      out.writeCompressedInt(tagsLength);
      if (tagDictionary != null) {
        TagCompression.compress(
            out, tagDictionary, cell.tagsSegment(), cell.tagsOffset(), tagsLength);
      } else {
        out.write(cell.tagsSegment(), cell.tagsOffset(), tagsLength);
      }
    }
    if (context.includesMvcc()) {
      out.writeVLong(cell.sequenceId());
    }
  }

  @Override
  public final int encodedSize() {
    return cellCount == 0 ? 0 : out.size() - HEADER_SIZE;
  }

  @Override
  public final int unencodedSize() {
    return unencodedSize;
  }

  @Override
  public final int cellCount() {
    return cellCount;
  }

  @Override
  public final byte[] finishBlock() {
    if (cellCount == 0) {
      throw new IllegalStateException("no cell was appended since the last block");
    }
    out.putInt(UNENCODED_SIZE_OFFSET, unencodedSize);
    byte[] payload = out.toByteArray();
    out.reset();
    cellCount = 0;
    unencodedSize = 0;
    return payload;
  }
}
