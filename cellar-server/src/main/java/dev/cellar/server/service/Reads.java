package dev.cellar.server.service;

import dev.cellar.Get;
import dev.cellar.Scan;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.rpc.RpcException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * HBase's Get and Scan messages as Cellar's {@link Get} and {@link Scan}: columns (a family without
 * qualifiers means the whole family), versions, time range, filter and block caching. What Cellar
 * cannot do (per-family time ranges, store limits and offsets) is refused with a DoNotRetry error
 * naming it, rather than answered differently. Stateless.
 */
final class Reads {

  private Reads() {}

  static Get get(ClientProtos.Get proto, ConvertedFilter filter) throws RpcException {
    if (proto.getRow().isEmpty()) {
      throw RpcException.doNotRetry("a Get needs a row key of at least one byte");
    }
    refuse(proto.getCfTimeRangeCount() > 0, "per-family time ranges");
    refuse(proto.hasStoreLimit() || proto.hasStoreOffset(), "store limits and offsets");
    Get get = new Get(proto.getRow().toByteArray());
    for (ClientProtos.Column column : proto.getColumnList()) {
      if (column.getQualifierCount() == 0) {
        get.addFamily(column.getFamily().toByteArray());
      } else {
        for (var qualifier : column.getQualifierList()) {
          get.addColumn(column.getFamily().toByteArray(), qualifier.toByteArray());
        }
      }
    }
    try {
      get.readVersions(Math.max(1, proto.getMaxVersions()));
      if (proto.hasTimeRange()) {
        get.setTimeRange(from(proto.getTimeRange()), to(proto.getTimeRange()));
      }
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry(e.getMessage());
    }
    get.setCacheBlocks(proto.getCacheBlocks());
    if (filter.filter() != null) {
      get.setFilter(filter.filter());
    }
    return get;
  }

  /**
   * Whether two Gets differ at most in their rows (and existence flags), so that one's Cellar Get
   * serves the other pointed at its row. Gets with filters are never the same shape.
   */
  static boolean sameShape(ClientProtos.Get a, ClientProtos.Get b) {
    return !a.hasFilter()
        && !b.hasFilter()
        && a.getMaxVersions() == b.getMaxVersions()
        && a.getCacheBlocks() == b.getCacheBlocks()
        && a.hasTimeRange() == b.hasTimeRange()
        && (!a.hasTimeRange() || a.getTimeRange().equals(b.getTimeRange()))
        && a.getCfTimeRangeCount() == 0
        && b.getCfTimeRangeCount() == 0
        && !b.hasStoreLimit()
        && !b.hasStoreOffset()
        && a.getColumnList().equals(b.getColumnList());
  }

  static Scan scan(ClientProtos.Scan proto, ConvertedFilter filter) throws RpcException {
    refuse(proto.getCfTimeRangeCount() > 0, "per-family time ranges");
    refuse(proto.hasStoreLimit() || proto.hasStoreOffset(), "store limits and offsets");
    Scan scan = new Scan();
    for (ClientProtos.Column column : proto.getColumnList()) {
      if (column.getQualifierCount() == 0) {
        scan.addFamily(column.getFamily().toByteArray());
      } else {
        for (var qualifier : column.getQualifierList()) {
          scan.addColumn(column.getFamily().toByteArray(), qualifier.toByteArray());
        }
      }
    }
    scan.withStartRow(proto.getStartRow().toByteArray());
    scan.withStopRow(proto.getStopRow().toByteArray(), proto.getIncludeStopRow());
    scan.setReversed(proto.getReversed());
    try {
      scan.readVersions(Math.max(1, proto.getMaxVersions()));
      if (proto.hasTimeRange()) {
        scan.setTimeRange(from(proto.getTimeRange()), to(proto.getTimeRange()));
      }
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry(e.getMessage());
    }
    scan.setCacheBlocks(proto.getCacheBlocks());
    if (filter.filter() != null) {
      try {
        filter.filter().setReversed(proto.getReversed());
      } catch (UnsupportedOperationException e) {
        throw RpcException.doNotRetry(e.getMessage());
      }
      scan.setFilter(filter.filter());
    }
    return scan;
  }

  private static long from(HBaseProtos.TimeRange range) {
    return range.hasFrom() ? range.getFrom() : 0;
  }

  private static long to(HBaseProtos.TimeRange range) {
    return range.hasTo() ? range.getTo() : Long.MAX_VALUE;
  }

  private static void refuse(boolean present, String what) throws RpcException {
    if (present) {
      throw RpcException.doNotRetry(what + " are not supported by Cellar");
    }
  }
}
