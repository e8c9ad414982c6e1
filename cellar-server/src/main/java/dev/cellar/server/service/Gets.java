package dev.cellar.server.service;

import dev.cellar.Get;
import dev.cellar.RowView;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.filter.FilterConverter;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * Answers a Get, alone or inside a Multi: from the {@link MetaReads} for hbase:meta, else through
 * the calling thread's {@link PointReaders reader}, which allocates nothing per row; the row's
 * cells go into the call's response ({@link ResultEncoder}) while the reader still holds them.
 * Thread-safe: per-call state, and per thread the last Get made, reused for the next request of
 * the same shape.
 */
final class Gets {

  private final Regions regions;
  private final MetaReads meta;
  private final PointReaders readers;
  private final ThreadLocal<LastGet> lastGet = ThreadLocal.withInitial(LastGet::new);

  Gets(Regions regions, MetaReads meta, PointReaders readers) {
    this.regions = regions;
    this.meta = meta;
    this.readers = readers;
  }

  /** The result of {@code proto} on {@code region}. */
  ClientProtos.Result get(RpcCall call, HBaseProtos.RegionSpecifier region,
      ClientProtos.Get proto) throws RpcException, IOException {
    if (Regions.isMeta(region)) {
      var cells = meta.get(proto);
      if (proto.getExistenceOnly()) {
        return ClientProtos.Result.newBuilder().setExists(!cells.isEmpty()).build();
      }
      return ResultEncoder.encode(call, cells, ConvertedFilter.NONE);
    }
    return read(call, regions.target(region), proto);
  }

  /**
   * {@code proto} as Cellar's Get: the calling thread's last one pointed at the new row when the
   * previous request had the same shape (columns, versions, time range, caching; no filter), as a
   * client reading row after row sends, else a new one.
   */
  private Get compiled(ClientProtos.Get proto, ConvertedFilter filter) throws RpcException {
    LastGet last = lastGet.get();
    if (!proto.hasFilter() && last.proto != null && Reads.sameShape(last.proto, proto)
        && !proto.getRow().isEmpty()) {
      last.proto = proto;
      return last.get.setRow(proto.getRow().toByteArray());
    }
    Get get = Reads.get(proto, filter);
    last.proto = proto.hasFilter() ? null : proto;
    last.get = get;
    return get;
  }

  /** A thread's last Get without a filter and the request it was made from. */
  private static final class LastGet {
    ClientProtos.Get proto;
    Get get;
  }

  /** The result of {@code proto} on a table region. */
  ClientProtos.Result read(RpcCall call, Regions.Target target, ClientProtos.Get proto)
      throws RpcException, IOException {
    for (ClientProtos.Column column : proto.getColumnList()) {
      Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
    }
    ConvertedFilter filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter()
        : null);
    RowView row = readers.reader(target.table()).getView(compiled(proto, filter));
    if (proto.getExistenceOnly()) {
      return ClientProtos.Result.newBuilder().setExists(!row.isEmpty()).build();
    }
    return ResultEncoder.encode(call, row, filter);
  }
}
