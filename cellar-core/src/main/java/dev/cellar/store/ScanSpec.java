package dev.cellar.store;

import dev.cellar.filter.Filter;
import java.util.List;

/**
 * What one family's scanner returns: the columns asked for, how many versions, which timestamps,
 * the family's TTL and minimum versions, the filter, and the clock the TTL is measured against.
 *
 * @param qualifiers the columns asked for, sorted as unsigned bytes with no duplicates; null for
 *     all columns
 * @param maxVersions versions returned per column (at least 1); a filter sees only these newest
 *     surviving versions, as in HBase when the scan asks for the family's VERSIONS
 * @param minTimestamp the time range's start, inclusive
 * @param maxTimestamp the time range's end, exclusive
 * @param ttlMillis a put older than this (by its timestamp) is expired; Long.MAX_VALUE for never
 * @param minVersions versions kept per column even when expired
 * @param nowMillis the time the TTL is measured from
 * @param filter the scan's filter, or null
 */
public record ScanSpec(
    List<byte[]> qualifiers,
    int maxVersions,
    long minTimestamp,
    long maxTimestamp,
    long ttlMillis,
    int minVersions,
    long nowMillis,
    Filter filter) {

  public ScanSpec {
    if (maxVersions < 1) {
      throw new IllegalArgumentException("max versions must be >= 1, was " + maxVersions);
    }
    if (minTimestamp > maxTimestamp) {
      throw new IllegalArgumentException(
          "time range [" + minTimestamp + ", " + maxTimestamp + ") is empty");
    }
    qualifiers = qualifiers == null ? null : List.copyOf(qualifiers);
  }

  /** Every column, one version, all time, no TTL, no filter. */
  public static ScanSpec latest() {
    return new ScanSpec(
        null, 1, 0, Long.MAX_VALUE, Long.MAX_VALUE, 0, System.currentTimeMillis(), null);
  }

  /** Timestamps below this are expired. */
  long oldestUnexpiredTimestamp() {
    return oldestUnexpiredTimestamp(nowMillis);
  }

  /** Timestamps below this are expired at {@code now} (ignoring {@link #nowMillis()}). */
  long oldestUnexpiredTimestamp(long now) {
    return ttlMillis == Long.MAX_VALUE || ttlMillis > now ? Long.MIN_VALUE : now - ttlMillis;
  }
}
