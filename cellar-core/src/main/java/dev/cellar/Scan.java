package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.filter.Filter;

/**
 * A read of a range of rows, [start row, stop row) by default. Rows come in order, or in reverse
 * order when {@link #setReversed}, in which case the start row is the largest.
 */
public final class Scan extends Query {

  private byte[] startRow = Bytes.EMPTY;
  private byte[] stopRow = Bytes.EMPTY;
  private boolean stopRowInclusive;
  private int caching = 100;
  private long limit = Long.MAX_VALUE;
  private boolean reversed;

  /** A scan of every row of every family, forwards, the latest version of each column. */
  public Scan() {}

  /** The first row read (inclusive); empty for the table's start. */
  public Scan withStartRow(byte[] row) {
    startRow = row.clone();
    return this;
  }

  /** The row the scan stops at (exclusive); empty for the table's end. */
  public Scan withStopRow(byte[] row) {
    return withStopRow(row, false);
  }

  public Scan withStopRow(byte[] row, boolean inclusive) {
    stopRow = row.clone();
    stopRowInclusive = inclusive;
    return this;
  }

  public Scan addFamily(byte[] family) {
    addFamilyInternal(family);
    return this;
  }

  public Scan addColumn(byte[] family, byte[] qualifier) {
    addColumnInternal(family, qualifier);
    return this;
  }

  public Scan readVersions(int versions) {
    readVersionsInternal(versions);
    return this;
  }

  public Scan setTimeRange(long min, long max) {
    timeRangeInternal(min, max);
    return this;
  }

  public Scan setFilter(Filter filter) {
    filterInternal(filter);
    return this;
  }

  /** Whether data blocks read are cached (default true; false for big one-off scans). */
  public Scan setCacheBlocks(boolean cacheBlocks) {
    cacheBlocksInternal(cacheBlocks);
    return this;
  }

  /** Rows fetched per batch by a remote client; kept for compatibility, embedded scans stream. */
  public Scan setCaching(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("caching must be >= 1, was " + rows);
    }
    caching = rows;
    return this;
  }

  /** Returns at most {@code rows} rows. */
  public Scan setLimit(long rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + rows);
    }
    limit = rows;
    return this;
  }

  public Scan setReversed(boolean value) {
    reversed = value;
    return this;
  }

  public byte[] startRow() {
    return startRow.clone();
  }

  public byte[] stopRow() {
    return stopRow.clone();
  }

  public boolean stopRowInclusive() {
    return stopRowInclusive;
  }

  public int caching() {
    return caching;
  }

  public long limit() {
    return limit;
  }

  public boolean reversed() {
    return reversed;
  }
}
