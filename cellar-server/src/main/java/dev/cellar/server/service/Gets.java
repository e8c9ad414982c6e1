package dev.cellar.server.service;

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
 * Thread-safe: per-call state only.
 */
final class Gets {

  private final Regions regions;
  private final MetaReads meta;
  private final PointReaders readers;

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

  /** The result of {@code proto} on a table region. */
  ClientProtos.Result read(RpcCall call, Regions.Target target, ClientProtos.Get proto)
      throws RpcException, IOException {
    for (ClientProtos.Column column : proto.getColumnList()) {
      Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
    }
    ConvertedFilter filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter()
        : null);
    RowView row = readers.reader(target.table()).getView(Reads.get(proto, filter));
    if (proto.getExistenceOnly()) {
      return ClientProtos.Result.newBuilder().setExists(!row.isEmpty()).build();
    }
    return ResultEncoder.encode(call, row, filter);
  }
}
