package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Keeps the rows whose key starts with a prefix, as HBase's PrefixFilter (2.6.2 and later): a row
 * before the prefix is left with a seek hint to the first row that could match ({@link
 * ReturnCode#SEEK_NEXT_USING_HINT}); a matching row is kept whole; the first row after the prefix
 * ends the scan ({@link #filterAllRemaining}), since rows come in order and none later can match.
 * The row key is compared in place with the prefix; a row shorter than the prefix that the prefix
 * starts with sorts before it.
 */
public final class PrefixFilter extends Filter implements HintingFilter {

  private final byte[] prefix;
  private final MemorySegment prefixSegment;
  private final KeyValue firstMatchingRow;
  private boolean passedPrefix;
  private boolean filterRow = true;
  private boolean provideHint;

  /**
   * @param prefix the row prefix; copied. Empty keeps every row
   * @throws NullPointerException if {@code prefix} is null
   * @throws IllegalArgumentException if {@code prefix} is longer than a row may be
   */
  public PrefixFilter(byte[] prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix").clone();
    this.prefixSegment = MemorySegment.ofArray(this.prefix);
    this.firstMatchingRow = KeyValue.firstOnRow(this.prefix);
  }

  /** A copy of the prefix. */
  public byte[] prefix() {
    return prefix.clone();
  }

  @Override
  public void reset() {
    filterRow = true;
    provideHint = false;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (passedPrefix) {
      return true;
    }
    int order = compareWithPrefix(firstRowCell);
    passedPrefix = order > 0;
    filterRow = order != 0;
    provideHint = order < 0;
    return passedPrefix;
  }

  /** The row's first {@code prefix.length} bytes against the prefix. */
  private int compareWithPrefix(Cell cell) {
    int rowLength = cell.rowLength();
    int common = Math.min(rowLength, prefix.length);
    int order = Bytes.compare(cell.segment(), cell.rowOffset(), common, prefixSegment, 0, common);
    return order == 0 && rowLength < prefix.length ? -1 : order;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (provideHint) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return filterRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public Cell nextCellHint(Cell current) {
    return firstMatchingRow;
  }

  @Override
  public boolean filterRow() {
    return filterRow;
  }

  @Override
  public boolean filterAllRemaining() {
    return passedPrefix;
  }

  @Override
  public String toString() {
    return "PrefixFilter " + Bytes.toStringBinary(prefix);
  }
}
