package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.MetaTable;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import dev.cellar.spi.EngineAccess;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * {@code ClientService}: Get, Mutate, Multi and Scan on the tables' regions and on hbase:meta, each
 * handled by its own class ({@link Gets}, {@link Writes}, {@link MultiHandler}, {@link
 * ScanHandler}) over the shared routing of region names ({@link Regions}).
 *
 * <p><b>Cells.</b> Results carry their cells in the call's cell block when the connection named a
 * codec ({@link ResultEncoder}), else as protobuf cells.
 *
 * <p>Thread-safe: per-call state only, besides the scanners, the threads' point readers and the row
 * locks, each of which guards itself.
 */
public final class ClientService implements AutoCloseable {

  public static final String NAME = "ClientService";

  private final Gets gets;
  private final Writes writes;
  private final MultiHandler multi;
  private final ScanHandler scans;
  private final PointReaders readers;
  private final MetaReads metaReads;
  private final boolean inlineGets;
  private final EngineMetrics metrics;

  /**
   * @param inlineGets whether gets run on the connection's event loop rather than on a handler
   *     thread: no thread hand-off per get (two wake-ups fewer), at the price of a slow get (a
   *     cache miss that reads the disk) holding up the other connections of its event loop
   */
  public ClientService(
      Cellar cellar, Catalog catalog, MetaTable meta, ScanLimits scanLimits, boolean inlineGets) {
    this.inlineGets = inlineGets;
    this.metrics = EngineAccess.engine(cellar).metrics();
    Regions regions = new Regions(cellar, catalog);
    this.metaReads = new MetaReads(meta);
    this.readers = new PointReaders(regions::current);
    this.gets = new Gets(regions, metaReads, readers);
    this.writes = new Writes(regions);
    this.multi = new MultiHandler(regions, gets, writes);
    this.scans = new ScanHandler(regions, metaReads, scanLimits, metrics);
  }

  public RpcService service() {
    return UnservedMethods.service(
        NAME,
        ClientProtos.ClientService.getDescriptor(),
        List.of(
            new RpcMethod<>(
                "Get",
                GetRequest.parser(),
                counted(Counter.RPC_GET_REQUESTS, this::get),
                inlineGets,
                countedBytes(Counter.RPC_GET_REQUESTS, gets::getFromBytes)),
            RpcMethod.of(
                "Mutate",
                MutateRequest.parser(),
                counted(Counter.RPC_MUTATE_REQUESTS, writes::mutate)),
            RpcMethod.of(
                "Multi", MultiRequest.parser(), counted(Counter.RPC_MULTI_REQUESTS, multi::multi)),
            RpcMethod.of(
                "Scan", ScanRequest.parser(), counted(Counter.RPC_SCAN_REQUESTS, scans::scan))));
  }

  /**
   * {@code handler}, counting each request as HBase's region server does: once in {@code
   * totalRequestCount} and once in the method's own counter, whatever the outcome.
   */
  private <M extends Message> RpcMethod.Handler<M> counted(
      Counter counter, RpcMethod.Handler<M> handler) {
    return (call, request) -> {
      metrics.increment(Counter.RPC_REQUESTS);
      metrics.increment(counter);
      return handler.handle(call, request);
    };
  }

  /**
   * {@code handler} answering from a request's bytes, counted as {@link #counted} counts when it
   * answers or fails (a request it leaves to the parsed path is counted there).
   */
  private RpcMethod.BytesHandler countedBytes(Counter counter, RpcMethod.BytesHandler handler) {
    return (call, request) -> {
      Message response;
      try {
        response = handler.handle(call, request);
      } catch (Exception | Error e) {
        metrics.increment(Counter.RPC_REQUESTS);
        metrics.increment(counter);
        throw e;
      }
      if (response != null) {
        metrics.increment(Counter.RPC_REQUESTS);
        metrics.increment(counter);
      }
      return response;
    };
  }

  /** The rows of hbase:meta read so far (Gets that found their row, rows scans handed out). */
  public long metaRowsRead() {
    return metaReads.rowsRead();
  }

  /** The number of open scanners. */
  public int openScanners() {
    return scans.openScanners();
  }

  private GetResponse get(RpcCall call, GetRequest request) throws Exception {
    return Gets.response(gets.get(call, request.getRegion(), request.getGet()));
  }

  /** Closes the open scanners and the threads' readers; calls must have stopped. */
  @Override
  public void close() {
    scans.close();
    readers.close();
  }
}
