package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.row.CollectedRow;
import java.io.IOException;

/**
 * The short way through one row of one family when a single source holds the row and the read asks
 * for the newest version of every column, with no filter and no minimum versions (a plain Get, and
 * YCSB's and PE's reads): the newest put of each column is taken and the column's older cells are
 * stepped over, with none of the general matcher's bookkeeping (delete tracking, column and version
 * counting, a seek key built per column).
 *
 * <p><b>When it gives up.</b> A delete marker anywhere in the row (a family marker may sort after a
 * put of the empty qualifier and still mask later columns), or a cell outside the time range or the
 * TTL, is left to the general matcher: {@link #collect} then takes back what it added and reports
 * {@code false}, and the caller reads the row again from its start. Every cell it steps over
 * follows, in the same column, a put it took: by the key order (timestamps descending, then markers
 * before puts), nothing there can mask that put.
 *
 * <p><b>In place.</b> A file whose cells lie whole in its blocks is walked by its block seekers
 * instead ({@link StoreFileScanner#collectLatestPuts}): the same decisions on raw keys, with no
 * cursor layers crossed per cell.
 *
 * <p><b>Memory.</b> The column just taken is recognised by comparing with the cell added to the row
 * holder, whose memory the holder keeps (a pinned block or its arena): no key is copied and nothing
 * is allocated. Stateless; safe to share.
 */
final class LatestPutsCollector {

  private static final byte PUT_CODE = CellType.PUT.code();

  private LatestPutsCollector() {}

  /** Whether {@code spec} asks for what this collector returns. */
  static boolean applies(ScanSpec spec) {
    return spec.qualifiers() == null
        && spec.maxVersions() == 1
        && spec.filter() == null
        && spec.minVersions() == 0;
  }

  /**
   * Adds the newest put of each column of the row {@code source} is positioned on (its first cell
   * is the row's first) to {@code out}. False, with {@code out} as it was and {@code source}
   * somewhere in the row, when the row needs the general matcher (see the class comment).
   *
   * @param oldestUnexpired timestamps below this are expired by the family's TTL
   */
  static boolean collect(
      KeyValueScanner source, Cell rowStart, long oldestUnexpired, ScanSpec spec, CollectedRow out)
      throws IOException {
    int before = out.size();
    long minTimestamp = Math.max(spec.minTimestamp(), oldestUnexpired);
    long maxTimestamp = spec.maxTimestamp();
    if (source instanceof StoreFileScanner file && file.collectsInPlace()) {
      if (file.collectLatestPuts(rowStart, minTimestamp, maxTimestamp, out)) {
        return true;
      }
      out.truncate(before);
      return false;
    }
    Cell cell = source.peek();
    while (cell != null && CellComparator.sameRow(cell, rowStart)) {
      long timestamp = cell.timestamp();
      if (cell.typeByte() != PUT_CODE || timestamp >= maxTimestamp || timestamp < minTimestamp) {
        out.truncate(before);
        return false;
      }
      source.collectCurrent(out);
      Cell taken = out.get(out.size() - 1);
      cell = source.next();
      while (cell != null && sameColumn(cell, taken)) {
        if (cell.typeByte() != PUT_CODE) {
          out.truncate(before);
          return false;
        }
        cell = source.next();
      }
    }
    return true;
  }

  /** Same row and qualifier (a store holds one family). */
  private static boolean sameColumn(Cell cell, Cell taken) {
    return Bytes.equals(
            cell.segment(),
            cell.qualifierOffset(),
            cell.qualifierLength(),
            taken.segment(),
            taken.qualifierOffset(),
            taken.qualifierLength())
        && Bytes.equals(
            cell.segment(),
            cell.rowOffset(),
            cell.rowLength(),
            taken.segment(),
            taken.rowOffset(),
            taken.rowLength());
  }
}
