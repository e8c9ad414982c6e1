package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.filter.Filter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
  private final Map<String, List<byte[]>> columns = new TreeMap<>();
  private int maxVersions = 1;
  private long minTimestamp = 0;
  private long maxTimestamp = Long.MAX_VALUE;
  private Filter filter;
  private boolean cacheBlocks = true;
  /** Counts changes to everything but the row, so a compiled form can tell it is stale. */
  private int modifications;

  void addFamilyInternal(byte[] family) {
    modifications++;
    columns.put(new String(family, StandardCharsets.UTF_8), null);
  }

  void addColumnInternal(byte[] family, byte[] qualifier) {
    modifications++;
    String name = new String(family, StandardCharsets.UTF_8);
    if (columns.containsKey(name) && columns.get(name) == null) {
      return;
    }
    List<byte[]> qualifiers = columns.computeIfAbsent(name, k -> new ArrayList<>());
    for (byte[] existing : qualifiers) {
      if (Bytes.compare(existing, qualifier) == 0) {
        return;
      }
    }
    qualifiers.add(qualifier.clone());
    qualifiers.sort(Bytes::compare);
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
