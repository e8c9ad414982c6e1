package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;

/**
 * One cell as NONE and ROW_INDEX_V1 blocks store it, and as HBase counts every cell's "unencoded"
 * size. Stateless and thread-safe.
 *
 * <pre>
 *  int32   keyLength
 *  int32   valueLength
 *          key          (KeyValueLayout)
 *          value
 *  [uint16 tagsLength, tags]   when the file includes tags (tagsLength may be 0)
 *  [vlong  mvcc]               when the file includes mvcc: the cell's sequence id, Hadoop vlong
 * </pre>
 */
final class PlainCellFormat {

  private PlainCellFormat() {}

  /**
   * Returns the cell's size in this format.
   *
   * @throws IllegalArgumentException if the cell has tags but the file includes none
   */
  static int size(Cell cell, EncodingContext context) {
    checkTags(cell, context);
    long size =
        KeyValueLayout.cellLength(
            cell.keyLength(), cell.valueLength(), cell.tagsLength(), context.includesTags());
    if (context.includesMvcc()) {
      size += Bytes.vlongSize(cell.sequenceId());
    }
    return Math.toIntExact(size);
  }

  /**
   * Writes the cell in this format; returns the bytes written.
   *
   * @throws IllegalArgumentException if the cell has tags but the file includes none
   */
  static int write(BlockOutput out, Cell cell, EncodingContext context) {
    checkTags(cell, context);
    int start = out.size();
    out.writeInt(cell.keyLength());
    out.writeInt(cell.valueLength());
    out.write(cell.segment(), cell.keyOffset(), cell.keyLength());
    out.write(cell.valueSegment(), cell.valueOffset(), cell.valueLength());
    if (context.includesTags()) {
      out.writeShort(cell.tagsLength());
      out.write(cell.tagsSegment(), cell.tagsOffset(), cell.tagsLength());
    }
    if (context.includesMvcc()) {
      out.writeVLong(cell.sequenceId());
    }
    return out.size() - start;
  }

  /**
   * Refuses a cell whose tags the file cannot hold: HBase drops them silently, which would lose
   * data.
   */
  static void checkTags(Cell cell, EncodingContext context) {
    if (!context.includesTags() && cell.tagsLength() > 0) {
      throw new IllegalArgumentException(
          "cell "
              + cell
              + " has "
              + cell.tagsLength()
              + " bytes of tags but the file includes no tags");
    }
  }
}
