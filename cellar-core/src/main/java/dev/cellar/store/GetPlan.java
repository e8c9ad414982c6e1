package dev.cellar.store;

import java.util.List;

/**
 * A Get compiled against one region, independent of the row: which families it reads, with what
 * columns, versions, time range and TTL, so that reading many rows with the same Get compiles it
 * once ({@link Region#planGet}). A Get with a filter is read through a region scanner (filters
 * judge whole rows through lists), so its plan keeps the request to build one. Immutable.
 */
public final class GetPlan {

  final Region region;

  /** The region's families when the plan was made (see {@link Region#isCurrent}). */
  final Families families;

  /** What the plan was compiled from, to compile it again after an alter. */
  final ScanRequest request;

  final List<Store> stores;
  final List<ScanSpec> specs;
  final boolean cacheBlocks;

  /** The request to scan with when the Get has a filter, else null. */
  final ScanRequest scanned;

  GetPlan(
      Region region,
      Families families,
      ScanRequest request,
      List<Store> stores,
      List<ScanSpec> specs,
      boolean cacheBlocks,
      ScanRequest scanned) {
    this.region = region;
    this.families = families;
    this.request = request;
    this.stores = List.copyOf(stores);
    this.specs = List.copyOf(specs);
    this.cacheBlocks = cacheBlocks;
    this.scanned = scanned;
  }

  /** Whether rows are read through a region scanner (a filter), which allocates per read. */
  public boolean scans() {
    return scanned != null;
  }
}
