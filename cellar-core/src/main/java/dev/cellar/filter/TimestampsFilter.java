package dev.cellar.filter;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps the versions whose timestamp is in a set, as HBase's TimestampsFilter. A version older than
 * every wanted timestamp leaves its column ({@link ReturnCode#NEXT_COL}); any other unwanted
 * version is skipped, or, with {@code canHint}, answered with a seek hint to the next older wanted
 * timestamp of the same column (past the column when there is none), which skips the versions in
 * between without reading them. The timestamps are kept sorted and searched by bisection, so
 * judging a cell allocates nothing (a hint does).
 */
public final class TimestampsFilter extends Filter implements HintingFilter {

  private final long[] timestamps;
  private final boolean canHint;

  /**
   * @param timestamps the wanted timestamps (duplicates are fine); each must be >= 0
   * @param canHint whether unwanted versions are left with seek hints
   * @throws IllegalArgumentException if a timestamp is negative
   */
  public TimestampsFilter(List<Long> timestamps, boolean canHint) {
    this.timestamps = timestamps.stream().mapToLong(Long::longValue).sorted().distinct().toArray();
    for (long timestamp : this.timestamps) {
      if (timestamp < 0) {
        throw new IllegalArgumentException(
            "TimestampsFilter: timestamps must be >= 0, was " + timestamp);
      }
    }
    this.canHint = canHint;
  }

  /** The wanted timestamps, ascending. */
  public List<Long> timestamps() {
    return Arrays.stream(timestamps).boxed().toList();
  }

  public boolean canHint() {
    return canHint;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    long timestamp = cell.timestamp();
    if (Arrays.binarySearch(timestamps, timestamp) >= 0) {
      return ReturnCode.INCLUDE;
    }
    if (timestamps.length == 0 || timestamp < timestamps[0]) {
      return ReturnCode.NEXT_COL;
    }
    return canHint ? ReturnCode.SEEK_NEXT_USING_HINT : ReturnCode.SKIP;
  }

  /** The same column at the next older wanted timestamp, or past the column when none is left. */
  @Override
  public Cell nextCellHint(Cell current) {
    if (!canHint) {
      return null;
    }
    int at = Arrays.binarySearch(timestamps, current.timestamp());
    int lower = (at >= 0 ? at : -at - 1) - 1;
    byte[] row = current.rowArray();
    byte[] family = current.familyArray();
    byte[] qualifier = current.qualifierArray();
    if (lower < 0) {
      return KeyValue.lastOnColumn(row, family, qualifier);
    }
    return KeyValue.create(
        row, family, qualifier, timestamps[lower], CellType.MAXIMUM, dev.cellar.cell.Bytes.EMPTY);
  }

  @Override
  public String toString() {
    return "TimestampsFilter " + Arrays.toString(timestamps) + (canHint ? " hinting" : "");
  }
}
