package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.filter.Filter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link Get} and a {@link Scan} share: the families and columns asked for, versions, time
 * range, filter and whether data blocks read are cached. Not thread-safe while being built.
 */
public abstract sealed class Query permits Get, Scan {

  /** Families asked for; a null value means every column of the family. Empty: every family. */
  private final TreeMap<String, List<byte[]>> columns = new TreeMap<>();
  private int maxVersions = 1;
  private long minTimestamp = 0;
  private long maxTimestamp = Long.MAX_VALUE;
  private Filter filter;
  private boolean cacheBlocks = true;
  /** Counts changes to everything but the row, so a compiled form can tell it is stale. */
  private int modifications;

  Query() {}

  void addFamilyInternal(byte[] family) {
    modifications++;
    columns.put(FamilyNames.of(family), null);
  }

  void addColumnInternal(byte[] family, byte[] qualifier) {
    modifications++;
    String name = FamilyNames.of(family);
    if (columns.containsKey(name) && columns.get(name) == null) {
      return;
    }
    List<byte[]> qualifiers = columns.get(name);
    if (qualifiers == null) {
      columns.put(name, List.of(qualifier.clone()));
      return;
    }
    for (byte[] existing : qualifiers) {
      if (Bytes.compare(existing, qualifier) == 0) {
        return;
      }
    }
    List<byte[]> more = new ArrayList<>(qualifiers);
    more.add(qualifier.clone());
    more.sort(Bytes::compare);
    columns.put(name, more);
  }

  void readVersionsInternal(int versions) {
    modifications++;
    if (versions < 1) {
      throw new IllegalArgumentException("versions must be >= 1, was " + versions);
    }
    maxVersions = versions;
  }

  void timeRangeInternal(long min, long max) {
    modifications++;
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("time range [" + min + ", " + max + ") is invalid");
    }
    minTimestamp = min;
    maxTimestamp = max;
  }

  void filterInternal(Filter value) {
    modifications++;
    filter = value;
  }

  void cacheBlocksInternal(boolean value) {
    modifications++;
    cacheBlocks = value;
  }

  /** Families and their sorted qualifiers (null: all columns); empty means every family. */
  public Map<String, List<byte[]>> columns() {
    return Collections.unmodifiableMap(columns);
  }

  /**
   * Whether {@code other} reads the same columns, versions and time range with the same filter
   * (the same object) and cache flag: a plan compiled for one serves the other. Allocates nothing.
   */
  boolean sameShapeAs(Query other) {
    if (maxVersions != other.maxVersions || minTimestamp != other.minTimestamp
        || maxTimestamp != other.maxTimestamp || filter != other.filter
        || cacheBlocks != other.cacheBlocks || columns.size() != other.columns.size()) {
      return false;
    }
    if (columns.isEmpty()) {
      return true;
    }
    for (String family = columns.firstKey(); family != null;
        family = columns.higherKey(family)) {
      if (!other.columns.containsKey(family)
          || !sameQualifiers(columns.get(family), other.columns.get(family))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameQualifiers(List<byte[]> left, List<byte[]> right) {
    if (left == null || right == null) {
      return left == right;
    }
    if (left.size() != right.size()) {
      return false;
    }
    for (int i = 0; i < left.size(); i++) {
      if (!Arrays.equals(left.get(i), right.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Changes so far to the columns, versions, time range, filter or cache flag. */
  int modifications() {
    return modifications;
  }

  public int maxVersions() {
    return maxVersions;
  }

  public long minTimestamp() {
    return minTimestamp;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public Filter filter() {
    return filter;
  }

  public boolean cacheBlocks() {
    return cacheBlocks;
  }
}
