package dev.cellar;

import java.nio.file.Path;
import java.util.List;

/**
 * Where the regions of one table live and the key each writes to the log under.
 *
 * <p>A table created with split keys keeps each region in a directory of its own under the table's,
 * named by the region's encoded name ({@code tables/<table>/<encoded>/}: its manifest and family
 * directories), as HBase keeps {@code data/<namespace>/<table>/<encoded>/}, and writes its log
 * entries under that encoded name. A table of one region, which is what every table was before
 * tables had regions, is <i>rooted</i>: its one region lives in the table's directory itself and
 * logs under the table's name, so databases written before open unchanged. Immutable.
 *
 * @param places the regions in key order, each with its directory and log key
 * @param rooted whether the table is one region kept in the table's directory
 */
record TableRegions(List<Place> places, boolean rooted) {

  /**
   * One region's identity, directory and log key.
   *
   * @param info the region's keys and HBase identity
   * @param directory where its manifest and family directories are
   * @param walKey what its log entries are written under: its encoded name, or the table's name for
   *     a rooted table
   */
  record Place(RegionInfo info, Path directory, String walKey) {}

  TableRegions {
    places = List.copyOf(places);
  }

  /**
   * The regions {@code regions} of the table {@code name} in {@code tableDirectory}; none means a
   * rooted table, whose one region has the id 0.
   */
  static TableRegions of(Path tableDirectory, String name, List<RegionInfo> regions) {
    if (regions.isEmpty()) {
      RegionInfo whole = RegionInfo.of(name, new byte[0], new byte[0], 0);
      return new TableRegions(List.of(new Place(whole, tableDirectory, name)), true);
    }
    return new TableRegions(
        regions.stream()
            .map(
                region ->
                    new Place(
                        region, tableDirectory.resolve(region.encodedName()), region.encodedName()))
            .toList(),
        false);
  }

  /** The regions' identities, in key order. */
  List<RegionInfo> infos() {
    return places.stream().map(Place::info).toList();
  }
}
