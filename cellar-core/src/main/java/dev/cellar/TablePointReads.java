package dev.cellar;

import dev.cellar.row.CollectedRow;
import dev.cellar.row.PointReads;
import java.io.IOException;

/**
 * A {@link RowReader}'s reads of an embedded table of several regions: each Get goes to the reads
 * of the region holding its row, made on the first Get there and kept (with their plans) until the
 * reader closes. Not thread-safe: one reader thread.
 */
final class TablePointReads implements PointReads<Get> {

  private final RegionRouter router;
  private final RegionPointReads[] reads;

  TablePointReads(RegionRouter router) {
    this.router = router;
    this.reads = new RegionPointReads[router.size()];
  }

  /** Reads of {@code router}'s table: of its one region directly, else routed by row. */
  static PointReads<Get> of(RegionRouter router) {
    return router.size() == 1
        ? new RegionPointReads(router.region(0))
        : new TablePointReads(router);
  }

  @Override
  public void read(Get get, CollectedRow into) throws IOException {
    int index = router.indexOf(get.rowUnsafe());
    RegionPointReads region = reads[index];
    if (region == null) {
      region = new RegionPointReads(router.region(index));
      reads[index] = region;
    }
    region.read(get, into);
  }

  @Override
  public void close() {
    for (RegionPointReads region : reads) {
      if (region != null) {
        region.close();
      }
    }
  }
}
