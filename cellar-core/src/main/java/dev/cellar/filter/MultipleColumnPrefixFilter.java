package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Keeps the cells whose qualifier starts with any of several prefixes, as HBase's
 * MultipleColumnPrefixFilter. The prefixes are kept sorted. For a qualifier, the largest prefix not
 * after it decides: if the qualifier starts with it the cell is kept; otherwise the scan seeks to
 * the next larger prefix in the same row and family, or, past the largest one, leaves the family's
 * part of the row ({@link ReturnCode#NEXT_ROW}). A qualifier before every prefix seeks to the
 * smallest. No prefixes keeps everything. The qualifier is compared in place; only a hint
 * allocates.
 */
public final class MultipleColumnPrefixFilter extends Filter implements HintingFilter {

  private final byte[][] prefixes;
  private final MemorySegment[] segments;
  private byte[] hint;

  /**
   * @param prefixes the qualifier prefixes; copied
   * @throws IllegalArgumentException if a prefix is repeated
   */
  public MultipleColumnPrefixFilter(List<byte[]> prefixes) {
    byte[][] sorted = new byte[prefixes.size()][];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = Objects.requireNonNull(prefixes.get(i), "prefix").clone();
    }
    Arrays.sort(sorted, Arrays::compareUnsigned);
    for (int i = 1; i < sorted.length; i++) {
      if (Arrays.equals(sorted[i - 1], sorted[i])) {
        throw new IllegalArgumentException(
            "MultipleColumnPrefixFilter: prefix " + Bytes.toStringBinary(sorted[i]) + " repeated");
      }
    }
    this.prefixes = sorted;
    this.segments = new MemorySegment[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      segments[i] = MemorySegment.ofArray(sorted[i]);
    }
  }

  /** Copies of the prefixes, sorted. */
  public List<byte[]> prefixes() {
    List<byte[]> copies = new ArrayList<>(prefixes.length);
    for (byte[] prefix : prefixes) {
      copies.add(prefix.clone());
    }
    return copies;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (prefixes.length == 0) {
      return ReturnCode.INCLUDE;
    }
    int largestNotAfter = largestPrefixNotAfter(cell);
    if (largestNotAfter < 0) {
      hint = prefixes[0];
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    byte[] prefix = prefixes[largestNotAfter];
    if (cell.qualifierLength() >= prefix.length
        && Bytes.equals(
            cell.segment(),
            cell.qualifierOffset(),
            prefix.length,
            segments[largestNotAfter],
            0,
            prefix.length)) {
      return ReturnCode.INCLUDE;
    }
    if (largestNotAfter == prefixes.length - 1) {
      return ReturnCode.NEXT_ROW;
    }
    hint = prefixes[largestNotAfter + 1];
    return ReturnCode.SEEK_NEXT_USING_HINT;
  }

  /** The index of the largest prefix sorting at or before the qualifier, or -1; by bisection. */
  private int largestPrefixNotAfter(Cell cell) {
    int low = 0;
    int high = prefixes.length - 1;
    int found = -1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int order =
          Bytes.compare(
              segments[middle],
              0,
              prefixes[middle].length,
              cell.segment(),
              cell.qualifierOffset(),
              cell.qualifierLength());
      if (order <= 0) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** The first cell of the column named by the prefix chosen last, in the same row and family. */
  @Override
  public Cell nextCellHint(Cell current) {
    return KeyValue.firstOnColumn(current.rowArray(), current.familyArray(), hint);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("MultipleColumnPrefixFilter");
    for (byte[] prefix : prefixes) {
      text.append(' ').append(Bytes.toStringBinary(prefix));
    }
    return text.toString();
  }
}
