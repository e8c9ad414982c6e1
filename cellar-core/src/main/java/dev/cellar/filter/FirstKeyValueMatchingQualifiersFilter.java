package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Keeps the cells of a row up to and including the first whose qualifier is one of a set, then
 * leaves the row ({@link ReturnCode#NEXT_ROW}), as HBase's deprecated
 * FirstKeyValueMatchingQualifiersFilter (meant for counting rows that have one of the columns). A
 * row without any of them is kept whole. Qualifiers are compared in place.
 */
public final class FirstKeyValueMatchingQualifiersFilter extends Filter {

  private final List<byte[]> qualifiers;
  private boolean found;

  /**
   * @param qualifiers the qualifiers looked for; copied
   */
  public FirstKeyValueMatchingQualifiersFilter(List<byte[]> qualifiers) {
    this.qualifiers = new ArrayList<>(qualifiers.size());
    for (byte[] qualifier : qualifiers) {
      this.qualifiers.add(Objects.requireNonNull(qualifier, "qualifier").clone());
    }
  }

  /** Copies of the qualifiers looked for. */
  public List<byte[]> qualifiers() {
    return qualifiers.stream().map(byte[]::clone).toList();
  }

  @Override
  public void reset() {
    found = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    if (found) {
      return ReturnCode.NEXT_ROW;
    }
    for (byte[] qualifier : qualifiers) {
      if (Bytes.equals(cell.segment(), cell.qualifierOffset(), cell.qualifierLength(), qualifier)) {
        found = true;
        break;
      }
    }
    return ReturnCode.INCLUDE;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("FirstKeyValueMatchingQualifiersFilter");
    for (byte[] qualifier : qualifiers) {
      text.append(' ').append(Bytes.toStringBinary(qualifier));
    }
    return text.toString();
  }
}
