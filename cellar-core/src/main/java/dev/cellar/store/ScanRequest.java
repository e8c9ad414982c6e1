package dev.cellar.store;

import dev.cellar.filter.Filter;
import java.util.List;
import java.util.Map;

/**
 * A read as the region executes it: a row range, the families and columns, versions, time range,
 * filter and cache flag. A Get is a scan of one row with {@code getRow} set, which also lets files
 * be skipped by their bloom filters.
 *
 * @param startRow the first row, inclusive (empty: the table's first row, or last when reversed)
 * @param stopRow where the scan ends (empty: no end)
 * @param stopRowInclusive whether the stop row is returned
 * @param columns family name to sorted qualifiers (null value: every column); empty map: every
 *     family
 * @param maxVersions versions per column, capped by each family's VERSIONS
 * @param minTimestamp inclusive
 * @param maxTimestamp exclusive
 * @param filter or null
 * @param cacheBlocks whether data blocks read are cached
 * @param getRow the row of a Get, or null for a scan
 * @param reversed rows from the start row down to the stop row
 */
public record ScanRequest(
    byte[] startRow,
    byte[] stopRow,
    boolean stopRowInclusive,
    Map<String, List<byte[]>> columns,
    int maxVersions,
    long minTimestamp,
    long maxTimestamp,
    Filter filter,
    boolean cacheBlocks,
    byte[] getRow,
    boolean reversed) {}
