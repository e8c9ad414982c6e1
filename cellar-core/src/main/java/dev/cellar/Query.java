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

  /*
   * Families asked for and their sorted qualifiers (null: every column of the family); none named
   * means every family. Most queries name one family, which is kept in the fields below with no
   * map, and a single column of it with no list (a Get made per read, as HBase's API has callers
   * do, then costs no map, entry or list); a second family moves them into the map.
   */
  /** The one family named, while only one is; else null. */
  private String family;

  /** The one qualifier named in {@link #family}, while only one is; else null. */
  private byte[] soleQualifier;

  /** The qualifiers of {@link #family} once two are named; null for one or for all its columns. */
  private List<byte[]> qualifiers;

  /** Every family named, once two are; else null. */
  private TreeMap<String, List<byte[]>> families;

  private int maxVersions = 1;
  private long minTimestamp = 0;
  private long maxTimestamp = Long.MAX_VALUE;
  private Filter filter;
  private boolean cacheBlocks = true;

  /** Counts changes to everything but the row, so a compiled form can tell it is stale. */
  private int modifications;

  Query() {}

  void addFamilyInternal(byte[] familyName) {
    modifications++;
    put(FamilyNames.of(familyName), null);
  }

  /** Adds a column; the query keeps {@code qualifier} itself, as HBase's does (not a copy). */
  void addColumnInternal(byte[] familyName, byte[] qualifier) {
    modifications++;
    String name = FamilyNames.of(familyName);
    if (family == null && families == null) {
      family = name;
      soleQualifier = qualifier;
      return;
    }
    if (!names(name)) {
      put(name, List.of(qualifier));
      return;
    }
    List<byte[]> named = qualifiersOf(name);
    if (named == null) {
      return;
    }
    for (byte[] existing : named) {
      if (Bytes.compare(existing, qualifier) == 0) {
        return;
      }
    }
    List<byte[]> more = new ArrayList<>(named);
    more.add(qualifier);
    more.sort(Bytes::compare);
    put(name, more);
  }

  private void put(String name, List<byte[]> columns) {
    if (families != null) {
      families.put(name, columns);
    } else if (family == null || family.equals(name)) {
      family = name;
      boolean sole = columns != null && columns.size() == 1;
      soleQualifier = sole ? columns.get(0) : null;
      qualifiers = sole ? null : columns;
    } else {
      List<byte[]> first = qualifiersOf(family);
      families = new TreeMap<>();
      families.put(family, first);
      families.put(name, columns);
      family = null;
      soleQualifier = null;
      qualifiers = null;
    }
  }

  private boolean names(String name) {
    return families != null ? families.containsKey(name) : name.equals(family);
  }

  /** The qualifiers asked for in family {@code name}: null for all, or if it is not named. */
  private List<byte[]> qualifiersOf(String name) {
    if (families != null) {
      return families.get(name);
    }
    if (!name.equals(family)) {
      return null;
    }
    return soleQualifier != null ? List.of(soleQualifier) : qualifiers;
  }

  private int familyCount() {
    return families != null ? families.size() : family != null ? 1 : 0;
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
    if (families != null) {
      return Collections.unmodifiableMap(families);
    }
    return family == null ? Map.of() : Collections.singletonMap(family, qualifiersOf(family));
  }

  /**
   * Whether {@code other} reads the same columns, versions and time range with the same filter (the
   * same object) and cache flag: a plan compiled for one serves the other. Allocates nothing.
   */
  boolean sameShapeAs(Query other) {
    if (maxVersions != other.maxVersions
        || minTimestamp != other.minTimestamp
        || maxTimestamp != other.maxTimestamp
        || filter != other.filter
        || cacheBlocks != other.cacheBlocks
        || familyCount() != other.familyCount()) {
      return false;
    }
    if (families == null) {
      return family == null
          || (family.equals(other.family)
              && Arrays.equals(soleQualifier, other.soleQualifier)
              && sameQualifiers(qualifiers, other.qualifiers));
    }
    for (String name = families.firstKey(); name != null; name = families.higherKey(name)) {
      if (!other.names(name) || !sameQualifiers(families.get(name), other.qualifiersOf(name))) {
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
