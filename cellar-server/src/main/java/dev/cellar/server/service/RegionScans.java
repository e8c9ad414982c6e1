package dev.cellar.server.service;

import dev.cellar.Scan;
import dev.cellar.cell.Bytes;
import dev.cellar.server.catalog.Catalog;

/**
 * Keeps a client's scan to the region its request names, as HBase's region server scans only its
 * region: the client opens a scanner per region, from the region's first row (its last, reversed),
 * and when the server says the region is done ({@code more_results_in_region} false) moves on to
 * the next one itself. The table finds its rows region by region, so the scan's keys are clipped to
 * the region's:
 *
 * <ul>
 *   <li>forward, over {@code [start, end)}: the scan starts at the region's start at the earliest
 *       and stops before its end at the latest;
 *   <li>reversed: the scan starts at the region's end at the latest, that row itself left out (it
 *       is the next region's), and stops at its start, included, at the earliest.
 * </ul>
 *
 * Stateless.
 */
final class RegionScans {

  /**
   * A scan kept to a region.
   *
   * @param excludedStart the start row to leave out (a start row the client excluded, or the
   *     region's end of a reversed scan), or null
   * @param moreRegions whether the scan's range goes on past the region, so that the client is told
   *     there are more results when the region is done
   */
  record Clipped(Scan scan, byte[] excludedStart, boolean moreRegions) {}

  private RegionScans() {}

  /**
   * Clips {@code scan} to {@code region}; {@code excludeStart} says the client excluded the scan's
   * start row.
   */
  static Clipped clip(Scan scan, boolean excludeStart, Catalog.ServedRegion region) {
    byte[] start = scan.startRow();
    byte[] stop = scan.stopRow();
    byte[] regionStart = region.startKey();
    byte[] regionEnd = region.endKey();
    byte[] excluded = excludeStart ? start : null;
    boolean moreRegions;
    if (!scan.reversed()) {
      if (regionStart.length > 0 && (start.length == 0 || Bytes.compare(start, regionStart) < 0)) {
        scan.withStartRow(regionStart);
        excluded = null;
      }
      int order = stop.length == 0 ? 1 : Bytes.compare(stop, regionEnd);
      moreRegions = regionEnd.length > 0 && (order > 0 || (order == 0 && scan.stopRowInclusive()));
      if (moreRegions) {
        scan.withStopRow(regionEnd, false);
      }
    } else {
      if (regionEnd.length > 0 && (start.length == 0 || Bytes.compare(start, regionEnd) >= 0)) {
        scan.withStartRow(regionEnd);
        excluded = regionEnd;
      }
      moreRegions =
          regionStart.length > 0 && (stop.length == 0 || Bytes.compare(stop, regionStart) < 0);
      if (moreRegions) {
        scan.withStopRow(regionStart, true);
      }
    }
    return new Clipped(scan, excluded, moreRegions);
  }
}
