package dev.cellar;

import dev.cellar.row.CollectedRow;
import dev.cellar.row.PointReads;
import dev.cellar.store.GetPlan;
import dev.cellar.store.Region;
import dev.cellar.store.RegionPointRead;
import dev.cellar.store.ScanRequest;
import java.io.IOException;

/**
 * A {@link RowReader}'s reads of an embedded table: each Get compiled into a plan of its region
 * (kept while the same Get, or one of the same shape, is read again and the table's families are
 * unchanged) and read with one reader thread's reusable state, which pins nothing between reads.
 * Not thread-safe: one reader thread.
 */
final class RegionPointReads implements PointReads<Get> {

  private final Region region;
  private final RegionPointRead state = new RegionPointRead();
  private Get plannedGet;
  private int plannedModifications;
  private GetPlan plan;

  RegionPointReads(Region region) {
    this.region = region;
  }

  @Override
  public void read(Get get, CollectedRow into) throws IOException {
    region.get(planOf(get), get.rowUnsafe(), state, into);
  }

  /**
   * The plan of {@code get}: the last one made when {@code get} is the Get it was made for,
   * unchanged since, or another Get of the same shape (a new Get per read, as HBase's API has
   * callers do, is compiled once too) while the table's families are unchanged; else a new one.
   */
  private GetPlan planOf(Get get) {
    boolean same =
        get == plannedGet
            ? get.modifications() == plannedModifications
            : plannedGet != null && get.sameShapeAs(plannedGet);
    if (!same || !region.isCurrent(plan)) {
      plan =
          region.planGet(
              new ScanRequest(
                  get.rowUnsafe(),
                  get.rowUnsafe(),
                  true,
                  get.columns(),
                  get.maxVersions(),
                  get.minTimestamp(),
                  get.maxTimestamp(),
                  get.filter(),
                  get.cacheBlocks(),
                  get.rowUnsafe(),
                  false));
    }
    plannedGet = get;
    plannedModifications = get.modifications();
    return plan;
  }

  @Override
  public void close() {
    state.close();
  }
}
