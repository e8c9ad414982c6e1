package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.store.Region;
import java.util.Arrays;
import java.util.List;

/**
 * The open regions of one table in key order, and which of them holds a row. Immutable: a table's
 * region set changes by replacing its router.
 */
final class RegionRouter {

  private final RegionInfo[] infos;
  private final Region[] regions;

  /**
   * @param infos the regions' identities in key order, the first starting at the table's first row
   *     and each ending where the next starts
   * @param regions the open regions, in the same order
   */
  RegionRouter(List<RegionInfo> infos, List<Region> regions) {
    if (infos.isEmpty() || infos.size() != regions.size()) {
      throw new IllegalArgumentException(
          infos.size() + " region identities for " + regions.size() + " regions");
    }
    this.infos = infos.toArray(RegionInfo[]::new);
    this.regions = regions.toArray(Region[]::new);
  }

  /** The number of regions. */
  int size() {
    return regions.length;
  }

  /** The region at {@code index} in key order. */
  Region region(int index) {
    return regions[index];
  }

  /** The identity of the region at {@code index}. */
  RegionInfo info(int index) {
    return infos[index];
  }

  /** Every region, in key order. */
  List<Region> all() {
    return Arrays.asList(regions);
  }

  /** Every region's identity, in key order. */
  List<RegionInfo> infos() {
    return Arrays.asList(infos);
  }

  /** The position of the region holding {@code row}: the last whose start is at or before it. */
  int indexOf(byte[] row) {
    int low = 1;
    int high = infos.length - 1;
    int found = 0;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      if (Bytes.compare(infos[middle].startKeyUnsafe(), row) <= 0) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** The region holding {@code row}. */
  Region regionFor(byte[] row) {
    return regions[indexOf(row)];
  }
}
