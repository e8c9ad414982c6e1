package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps the rows in any of several row ranges, as HBase's MultiRowRangeFilter. The ranges are
 * sorted and overlapping or touching ones merged at construction. Each row is placed once, in
 * {@link #filterRowKey}, against the first range that does not end before it: a row in it is kept;
 * a row before it is answered with a seek hint to the range's start row (a row equal to an excluded
 * start is left with {@link ReturnCode#NEXT_ROW}); a row after the last range ends the scan ({@link
 * #filterAllRemaining}). Rows come in order, so the search starts from the range the last row was
 * placed in. Forward scans only: a reversed scan is refused.
 */
public final class MultiRowRangeFilter extends Filter implements HintingFilter {

  private final List<RowRange> ranges;
  private int index;
  private ReturnCode code = ReturnCode.INCLUDE;
  private boolean done;

  /**
   * @throws IllegalArgumentException if there are no ranges, or a range's start is after its stop
   */
  public MultiRowRangeFilter(List<RowRange> ranges) {
    this.ranges = merge(ranges);
  }

  /** The ranges as merged, in order. */
  public List<RowRange> ranges() {
    return ranges;
  }

  static List<RowRange> merge(List<RowRange> ranges) {
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("MultiRowRangeFilter: no ranges");
    }
    for (RowRange range : ranges) {
      if (!range.isValid()) {
        throw new IllegalArgumentException("MultiRowRangeFilter: invalid range " + range);
      }
    }
    List<RowRange> sorted = new ArrayList<>(ranges);
    // By start row only, keeping the given order among equal starts, as HBase does: the first of
    // them decides whether the merged range includes its start.
    sorted.sort(Comparator.comparing(RowRange::startUnsafe, Bytes::compare));
    List<RowRange> merged = new ArrayList<>();
    RowRange current = sorted.getFirst();
    for (RowRange next : sorted.subList(1, sorted.size())) {
      if (current.unboundedStop()) {
        break;
      }
      int order = Bytes.compare(current.stopUnsafe(), next.startUnsafe());
      boolean touches =
          order > 0 || (order == 0 && (current.stopInclusive() || next.startInclusive()));
      if (!touches) {
        merged.add(current);
        current = next;
        continue;
      }
      current =
          new RowRange(
              current.startUnsafe(),
              current.startInclusive(),
              laterStop(current, next),
              stopInclusive(current, next));
    }
    merged.add(current);
    return List.copyOf(merged);
  }

  private static RowRange later(RowRange a, RowRange b) {
    if (a.unboundedStop()) {
      return a;
    }
    if (b.unboundedStop()) {
      return b;
    }
    int order = Bytes.compare(a.stopUnsafe(), b.stopUnsafe());
    if (order != 0) {
      return order > 0 ? a : b;
    }
    return a.stopInclusive() ? a : b;
  }

  private static byte[] laterStop(RowRange a, RowRange b) {
    return later(a, b).stopUnsafe();
  }

  private static boolean stopInclusive(RowRange a, RowRange b) {
    return later(a, b).stopInclusive();
  }

  @Override
  public void setReversed(boolean reversed) {
    if (reversed) {
      throw new UnsupportedOperationException(
          "MultiRowRangeFilter in a reversed scan is not supported by Cellar");
    }
    super.setReversed(reversed);
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (done) {
      return true;
    }
    var segment = firstRowCell.segment();
    long offset = firstRowCell.rowOffset();
    int length = firstRowCell.rowLength();
    while (index < ranges.size() && ranges.get(index).endsBefore(segment, offset, length)) {
      index++;
    }
    if (index == ranges.size()) {
      done = true;
      code = ReturnCode.NEXT_ROW;
      return false;
    }
    RowRange range = ranges.get(index);
    if (range.contains(segment, offset, length)) {
      code = ReturnCode.INCLUDE;
    } else if (!range.startInclusive()
        && RowRange.compare(segment, offset, length, range.startUnsafe()) == 0) {
      code = ReturnCode.NEXT_ROW;
    } else {
      code = ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return code;
  }

  /** The first cell of the start row of the range the row was placed before. */
  @Override
  public Cell nextCellHint(Cell current) {
    return KeyValue.firstOnRow(ranges.get(Math.min(index, ranges.size() - 1)).startUnsafe());
  }

  @Override
  public boolean filterAllRemaining() {
    return done;
  }

  @Override
  public String toString() {
    return "MultiRowRangeFilter " + ranges;
  }
}
