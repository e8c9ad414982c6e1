package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import dev.cellar.row.RowStream;
import dev.cellar.store.RegionScanner;
import dev.cellar.store.ScanRequest;
import java.io.IOException;

/**
 * A scan of a table of several regions: the regions' scanners one after another, in key order (in
 * reverse for a reversed scan), from the region holding the start row to the one holding the stop
 * row. Each region holds only its own rows, so each region's scanner is given the scan as it is and
 * finds the rows of its part of the range. A region's scanner is opened when the previous one ends
 * and closed then, so the scan pins at most one region's blocks. Not thread-safe: one reader.
 *
 * <p>Like HBase's client moving from region to region, the scan is not one snapshot of the table:
 * each region is read at the point its scanner opens.
 */
final class RegionChainScanner implements RowStream {

  private final RegionRouter router;
  private final ScanRequest request;
  private final int step;
  private int index;
  private RegionScanner current;

  /** Opens the scan of {@code request} over {@code router}'s regions, at its first region. */
  RegionChainScanner(RegionRouter router, ScanRequest request) throws IOException {
    this.router = router;
    this.request = request;
    this.step = request.reversed() ? -1 : 1;
    byte[] start = request.startRow();
    if (start == null || start.length == 0) {
      this.index = request.reversed() ? router.size() - 1 : 0;
    } else {
      this.index = router.indexOf(start);
    }
    this.current = router.region(index).scanner(request);
  }

  /** One read of a region's scanner: whole rows, rows by a deadline, or parts of rows. */
  @FunctionalInterface
  private interface Read {
    boolean from(RegionScanner scanner) throws IOException;
  }

  @Override
  public boolean next(CollectedRow into) throws IOException {
    return read(scanner -> scanner.next(into), false);
  }

  @Override
  public boolean next(CollectedRow into, long deadlineNanos) throws IOException {
    return read(scanner -> scanner.next(into, deadlineNanos), true);
  }

  @Override
  public boolean nextPart(CollectedRow into, RowBudget budget) throws IOException {
    return read(scanner -> scanner.nextPart(into, budget), budget.timed());
  }

  /**
   * Reads from the current region, moving on to the next when it ends; a {@code timed} read that
   * stopped at its deadline stays in its region.
   */
  private boolean read(Read read, boolean timed) throws IOException {
    while (current != null) {
      if (read.from(current)) {
        return true;
      }
      if (timed && current.stoppedAtDeadline()) {
        return false;
      }
      advance();
    }
    return false;
  }

  @Override
  public boolean stoppedInRow() {
    return current != null && current.stoppedInRow();
  }

  @Override
  public boolean stoppedAtDeadline() {
    return current != null && current.stoppedAtDeadline();
  }

  @Override
  public byte[] lastSkippedRow() {
    return current == null ? null : current.lastSkippedRow();
  }

  /** Closes the region just finished and opens the next one the scan's range reaches, if any. */
  private void advance() throws IOException {
    current.close();
    current = null;
    int next = index + step;
    if (next < 0 || next >= router.size() || !reaches(router.info(next))) {
      return;
    }
    index = next;
    current = router.region(index).scanner(request);
  }

  /** Whether the scan's range reaches into {@code region}, the next one in the scan's order. */
  private boolean reaches(RegionInfo region) {
    byte[] stop = request.stopRow();
    if (stop == null || stop.length == 0) {
      return true;
    }
    if (request.reversed()) {
      // the region's rows lie below its end key: some may lie above the stop row only if the end
      // does (at worst the region is opened and yields nothing)
      return Bytes.compare(region.endKeyUnsafe(), stop) > 0;
    }
    int order = Bytes.compare(region.startKeyUnsafe(), stop);
    return order < 0 || (order == 0 && request.stopRowInclusive());
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
