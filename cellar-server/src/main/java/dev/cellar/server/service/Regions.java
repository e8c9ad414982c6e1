package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Bytes;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.RegionNames;
import dev.cellar.server.rpc.RpcException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * Routes a request's region name to what serves it. hbase:meta's is recognised by {@link #isMeta};
 * a table's is looked up in the {@link Catalog}: an unknown or stale name (a dropped and recreated
 * table) gets NotServingRegionException, so the client locates the region again; a disabled table
 * gets TableNotEnabledException. Thread-safe (the catalog is).
 */
final class Regions {

  /**
   * A table region a request names, with the table's current schema. The table is the whole table,
   * which finds the region of each row itself; a scan is kept to the region's keys ({@link
   * ScanHandler}).
   */
  record Target(
      Catalog.Entry entry, Catalog.ServedRegion region, Table table, TableDescriptor descriptor) {

    /**
     * Refuses a {@code operation} of {@code row} if the row is not in the region, as HBase's region
     * does ({@code HRegion.checkRow}); allocates nothing.
     *
     * @throws RpcException WrongRegionException naming the region, its keys and the row
     */
    void checkRow(ByteString row, String operation) throws RpcException {
      byte[] start = region.startKey();
      byte[] end = region.endKey();
      if ((start.length == 0 || compare(row, start) >= 0)
          && (end.length == 0 || compare(row, end) < 0)) {
        return;
      }
      throw outOfRange(row.toByteArray(), operation);
    }

    /** As {@link #checkRow(ByteString, String)} for a decoded row. */
    void checkRow(byte[] row, String operation) throws RpcException {
      byte[] start = region.startKey();
      byte[] end = region.endKey();
      if ((start.length == 0 || Bytes.compare(row, start) >= 0)
          && (end.length == 0 || Bytes.compare(row, end) < 0)) {
        return;
      }
      throw outOfRange(row, operation);
    }

    private RpcException outOfRange(byte[] row, String operation) {
      byte[] start = region.startKey();
      byte[] end = region.endKey();
      return RpcException.wrongRegion(
          "Requested row out of range for "
              + operation
              + " on region "
              + Bytes.toStringBinary(region.name())
              + ", startKey='"
              + Bytes.toStringBinary(start)
              + "', endKey='"
              + Bytes.toStringBinary(end)
              + "', row='"
              + Bytes.toStringBinary(row)
              + "'");
    }

    private static int compare(ByteString row, byte[] key) {
      int length = Math.min(row.size(), key.length);
      for (int i = 0; i < length; i++) {
        int order = Integer.compare(row.byteAt(i) & 0xff, key[i] & 0xff);
        if (order != 0) {
          return order;
        }
      }
      return Integer.compare(row.size(), key.length);
    }
  }

  private static final ByteString META_REGION = ByteString.copyFrom(RegionNames.META_REGION_NAME);

  private final Cellar cellar;
  private final Catalog catalog;

  Regions(Cellar cellar, Catalog catalog) {
    this.cellar = cellar;
    this.catalog = catalog;
  }

  static boolean isMeta(HBaseProtos.RegionSpecifier region) {
    return region.getValue().equals(META_REGION);
  }

  /** The table region {@code region} names. */
  Target target(HBaseProtos.RegionSpecifier region) throws RpcException {
    Catalog.Located located = catalog.byRegionName(region.getValue());
    if (located == null) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
    Catalog.Entry entry = located.entry();
    if (!entry.enabled()) {
      throw RpcException.doNotRetry(RpcException.TABLE_NOT_ENABLED, entry.name() + " is disabled");
    }
    try {
      Table table = cellar.table(entry.name());
      return new Target(entry, located.region(), table, cellar.admin().describe(entry.name()));
    } catch (dev.cellar.TableNotFoundException e) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
  }

  /**
   * Whether {@code target} still stands: its catalog entry is the current one (not disabled,
   * dropped or recreated since) and its table the database's. False for null.
   */
  boolean isCurrent(Target target) {
    return target != null
        && catalog.byName(target.entry().name()) == target.entry()
        && current(target.table());
  }

  /** Whether {@code table} is still the database's (not dropped or replaced). */
  boolean current(Table table) {
    try {
      return cellar.table(table.name()) == table;
    } catch (dev.cellar.TableNotFoundException e) {
      return false;
    }
  }
}
