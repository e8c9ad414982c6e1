package dev.cellar.server.service;

import dev.cellar.Get;
import dev.cellar.RowView;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.filter.FilterConverter;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Answers a Get, alone or inside a Multi: from the {@link MetaReads} for hbase:meta, else through
 * the calling thread's {@link PointReaders reader}, which allocates nothing per row; the row's
 * cells go into the call's response ({@link ResultEncoder}) while the reader still holds them.
 *
 * <p><b>From the request's bytes.</b> A client reading row after row sends the same Get but for its
 * row, to the same region. {@link #getFromBytes} finds the region name, the row and the rest of the
 * Get (its shape) in the serialized request ({@link GetRequestBytes}); when the shape and the
 * region equal those of the thread's last Get answered through messages, and that region still
 * serves the same table, it answers with that Get pointed at the new row, and parses no message.
 * Anything else (a first request, another shape, a filter, hbase:meta) goes through the messages
 * and, when it has no filter, becomes the shape the next requests are matched against.
 *
 * <p>Thread-safe: per-call state, and per thread the last Get made, reused for the next request of
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
  ClientProtos.Result get(RpcCall call, HBaseProtos.RegionSpecifier region, ClientProtos.Get proto)
      throws RpcException, IOException {
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
    if (!proto.hasFilter()
        && last.proto != null
        && Reads.sameShape(last.proto, proto)
        && !proto.getRow().isEmpty()) {
      last.proto = proto;
      return last.get.setRow(proto.getRow().toByteArray());
    }
    Get get = Reads.get(proto, filter);
    last.proto = proto.hasFilter() ? null : proto;
    last.get = get;
    last.shapeLength = -1;
    return get;
  }

  /**
   * A thread's last Get without a filter and the request it was made from; with, when it came as
   * bytes, its shape's bytes, its region's name and the region's target.
   */
  private static final class LastGet {
    final GetRequestBytes bytes = new GetRequestBytes();
    ClientProtos.Get proto;
    Get get;
    byte[] shape = new byte[64];
    int shapeLength = -1;
    byte[] regionName;
    Regions.Target target;
    boolean existenceOnly;

    boolean matches(GetRequestBytes request) {
      return shapeLength >= 0
          && request.shapeIs(shape, shapeLength)
          && request.regionIs(regionName);
    }
  }

  /** What a Get answer is once its cell count is known: one message per count, made once. */
  private static final ClientProtos.GetResponse[] RESPONSES = new ClientProtos.GetResponse[64];

  static {
    for (int count = 0; count < RESPONSES.length; count++) {
      RESPONSES[count] =
          ClientProtos.GetResponse.newBuilder().setResult(ResultEncoder.counted(count)).build();
    }
  }

  /** The response holding {@code result}. */
  static ClientProtos.GetResponse response(ClientProtos.Result result) {
    if (result.getCellCount() == 0
        && !result.hasExists()
        && result.getAssociatedCellCount() < RESPONSES.length
        && result == ResultEncoder.counted(result.getAssociatedCellCount())) {
      return RESPONSES[result.getAssociatedCellCount()];
    }
    return ClientProtos.GetResponse.newBuilder().setResult(result).build();
  }

  /**
   * Answers the serialized {@code GetRequest} in {@code request}, from its bytes when it has the
   * shape and region of this thread's last Get (see above), else through its messages; null if the
   * bytes are not a GetRequest this reads, for the caller to parse.
   */
  ClientProtos.GetResponse getFromBytes(RpcCall call, ByteBuffer request) throws Exception {
    LastGet last = lastGet.get();
    GetRequestBytes bytes = last.bytes;
    if (!bytes.parse(request)) {
      return null;
    }
    Regions.Target target = last.target;
    if (last.matches(bytes) && regions.isCurrent(target)) {
      byte[] key = bytes.row();
      target.checkRow(key, "Get");
      RowView row = readers.reader(target.table()).getView(last.get.setRow(key));
      if (last.existenceOnly) {
        return ClientProtos.GetResponse.newBuilder()
            .setResult(ClientProtos.Result.newBuilder().setExists(!row.isEmpty()))
            .build();
      }
      return response(ResultEncoder.encode(call, row, ConvertedFilter.NONE));
    }
    last.shapeLength = -1;
    ClientProtos.GetRequest parsed;
    try {
      parsed = ClientProtos.GetRequest.parseFrom(request);
    } catch (InvalidProtocolBufferException e) {
      throw RpcException.doNotRetry(
          "the request of ClientService.Get could not be parsed: " + e.getMessage());
    }
    ClientProtos.GetResponse response = response(get(call, parsed.getRegion(), parsed.getGet()));
    if (!Regions.isMeta(parsed.getRegion())
        && !parsed.getGet().hasFilter()
        && last.proto == parsed.getGet()) {
      last.target = regions.target(parsed.getRegion());
      last.regionName = parsed.getRegion().getValue().toByteArray();
      last.existenceOnly = parsed.getGet().getExistenceOnly();
      last.shape = bytes.copyShape(last.shape);
      last.shapeLength = bytes.shapeLength();
    }
    return response;
  }

  /** The result of {@code proto} on a table region. */
  ClientProtos.Result read(RpcCall call, Regions.Target target, ClientProtos.Get proto)
      throws RpcException, IOException {
    target.checkRow(proto.getRow(), "Get");
    for (ClientProtos.Column column : proto.getColumnList()) {
      Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
    }
    ConvertedFilter filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter() : null);
    RowView row = readers.reader(target.table()).getView(compiled(proto, filter));
    if (proto.getExistenceOnly()) {
      return ClientProtos.Result.newBuilder().setExists(!row.isEmpty()).build();
    }
    return ResultEncoder.encode(call, row, filter);
  }
}
