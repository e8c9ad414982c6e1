package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Keeps the cells whose qualifier starts with a prefix, as HBase's ColumnPrefixFilter. Qualifiers
 * come sorted within a row and family, so a qualifier before the prefix is left with a seek hint to
 * the first column that could match (the prefix itself, in the same row and family), and one after
 * it ends the family's part of the row ({@link ReturnCode#NEXT_ROW}). A qualifier shorter than the
 * prefix that the prefix starts with sorts before it. Compares in place; only a hint allocates.
 */
public final class ColumnPrefixFilter extends Filter implements HintingFilter {

  private final byte[] prefix;
  private final MemorySegment prefixSegment;

  /**
   * @param prefix the qualifier prefix; copied. Empty keeps every cell
   * @throws NullPointerException if {@code prefix} is null
   */
  public ColumnPrefixFilter(byte[] prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix").clone();
    this.prefixSegment = MemorySegment.ofArray(this.prefix);
  }

  /** A copy of the prefix. */
  public byte[] prefix() {
    return prefix.clone();
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    int qualifierLength = cell.qualifierLength();
    int common = Math.min(qualifierLength, prefix.length);
    int order =
        Bytes.compare(cell.segment(), cell.qualifierOffset(), common, prefixSegment, 0, common);
    if (order < 0 || (order == 0 && qualifierLength < prefix.length)) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return order > 0 ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  /** The first cell of the column named by the prefix, in {@code current}'s row and family. */
  @Override
  public Cell nextCellHint(Cell current) {
    return KeyValue.firstOnColumn(current.rowArray(), current.familyArray(), prefix);
  }

  @Override
  public String toString() {
    return "ColumnPrefixFilter " + Bytes.toStringBinary(prefix);
  }
}
