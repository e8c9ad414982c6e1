package dev.cellar;

import dev.cellar.filter.Filter;
import java.util.Objects;

/** A read of one row. */
public final class Get extends Query {

  private byte[] row;

  /**
   * A read of {@code row}, which the Get keeps, as HBase's does (not a copy): the array must not
   * change while the Get is read.
   */
  public Get(byte[] row) {
    this.row = checked(row);
  }

  private static byte[] checked(byte[] row) {
    Objects.requireNonNull(row, "row");
    if (row.length == 0) {
      throw new IllegalArgumentException("a row key is at least one byte");
    }
    return row;
  }

  public byte[] row() {
    return row.clone();
  }

  /**
   * Points this Get at another row, keeping its columns, versions, time range and filter: a Get
   * reused row after row with a {@link RowReader} is compiled once. The Get keeps {@code newRow} as
   * the constructor keeps its row.
   */
  public Get setRow(byte[] newRow) {
    row = checked(newRow);
    return this;
  }

  byte[] rowUnsafe() {
    return row;
  }

  public Get addFamily(byte[] family) {
    addFamilyInternal(family);
    return this;
  }

  public Get addColumn(byte[] family, byte[] qualifier) {
    addColumnInternal(family, qualifier);
    return this;
  }

  /** Returns up to {@code versions} versions of each column (default 1). */
  public Get readVersions(int versions) {
    readVersionsInternal(versions);
    return this;
  }

  /** Only versions with {@code min} ≤ timestamp &lt; {@code max}. */
  public Get setTimeRange(long min, long max) {
    timeRangeInternal(min, max);
    return this;
  }

  public Get setFilter(Filter filter) {
    filterInternal(filter);
    return this;
  }

  /** Whether data blocks read are cached (default true). */
  public Get setCacheBlocks(boolean cacheBlocks) {
    cacheBlocksInternal(cacheBlocks);
    return this;
  }
}
