package dev.cellar;

import dev.cellar.cell.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The regions a table is created with from its split keys, checked as HBase's client checks them:
 * sorted first, none empty, no two equal. Stateless.
 */
final class SplitKeys {

  private SplitKeys() {}

  /**
   * The regions of a new table {@code table} split at {@code splitKeys}, all with one region id
   * (the time now, as HBase gives a new table's regions); none for no keys, a table of one region.
   *
   * @throws IllegalArgumentException naming the key if one is null or empty, or two are equal
   */
  static List<RegionInfo> regions(String table, byte[][] splitKeys) {
    if (splitKeys == null || splitKeys.length == 0) {
      return List.of();
    }
    byte[][] sorted = splitKeys.clone();
    for (int i = 0; i < sorted.length; i++) {
      if (sorted[i] == null || sorted[i].length == 0) {
        throw new IllegalArgumentException(
            "split key " + i + " of table " + table + " is empty: the first region starts there");
      }
    }
    Arrays.sort(sorted, Bytes::compare);
    for (int i = 1; i < sorted.length; i++) {
      if (Bytes.compare(sorted[i - 1], sorted[i]) == 0) {
        throw new IllegalArgumentException(
            "split key " + Bytes.toStringBinary(sorted[i]) + " of table " + table + " is repeated");
      }
    }
    long regionId = System.currentTimeMillis();
    List<RegionInfo> regions = new ArrayList<>(sorted.length + 1);
    byte[] start = new byte[0];
    for (byte[] key : sorted) {
      regions.add(RegionInfo.of(table, start, key, regionId));
      start = key;
    }
    regions.add(RegionInfo.of(table, start, new byte[0], regionId));
    return regions;
  }
}
