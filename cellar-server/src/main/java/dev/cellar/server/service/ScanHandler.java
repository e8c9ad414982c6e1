package dev.cellar.server.service;

import dev.cellar.RowView;
import dev.cellar.cell.Cell;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.Operation;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.filter.FilterConverter;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * The Scan call: opens a scanner, reads its next rows, renews its lease or closes it. Scanners keep
 * their state in {@link Scanners}: the rows, the client's call sequence number, the rows left
 * under the scan's limit and the lease. A response holds whole rows (split into batches of {@code
 * batch_size} cells, flagged partial, when the scan asks for it) up to the request's row count or
 * the smaller of the scan's and the server's result size ({@link ScanLimits}); an exhausted
 * scanner is closed and says so ({@code more_results_in_region} false), as the client then sends
 * no close. A call out of sequence closes the scanner and gets OutOfOrderScannerNextException, so
 * the client reopens the scan.
 *
 * <p><b>Heartbeats.</b> For a client that takes them, a call stops at its {@link ScanLimits time
 * limit}, between rows, and answers with the rows it has (maybe none), {@code heartbeat_message}
 * set and more results to come; with the {@code cursor} (the last row the scan went past) when
 * the scan asked for one. The scanner stays where it stopped, and the next call goes on from there.
 *
 * <p>A table row's cells lying in cached off-heap blocks go out from the blocks' memory ({@link
 * ResultEncoder#appendPinned}), the response's cell block pinning those blocks until written.
 *
 * <p>Thread-safe: a scanner is used under its lock, by one call at a time.
 */
final class ScanHandler implements AutoCloseable {

  private final Regions regions;
  private final MetaReads meta;
  private final Scanners scanners;
  private final ScanLimits limits;
  private final EngineMetrics metrics;

  /** Records each Scan RPC that reads rows in {@code metrics} (HBase's ScanTime and ScanSize). */
  ScanHandler(Regions regions, MetaReads meta, ScanLimits limits, EngineMetrics metrics) {
    this.metrics = metrics;
    this.regions = regions;
    this.meta = meta;
    this.limits = limits;
    this.scanners = new Scanners(limits.leaseMillis(), System::currentTimeMillis);
  }

  /** The number of open scanners. */
  int openScanners() {
    return scanners.size();
  }

  ScanResponse scan(RpcCall call, ScanRequest request) throws Exception {
    if (request.hasScannerId()) {
      return next(call, request);
    }
    if (!request.hasRegion() || !request.hasScan()) {
      throw RpcException.doNotRetry("a scan request names a scanner or a region and a scan");
    }
    ClientProtos.Scan proto = request.getScan();
    ConvertedFilter filter;
    RowSource rows;
    if (Regions.isMeta(request.getRegion())) {
      filter = ConvertedFilter.NONE;
      rows = RowSource.of(meta.scan(proto));
    } else {
      Regions.Target target = regions.target(request.getRegion());
      for (ClientProtos.Column column : proto.getColumnList()) {
        Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
      }
      filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter() : null);
      byte[] start = proto.getStartRow().toByteArray();
      boolean excludeStart = proto.hasIncludeStartRow() && !proto.getIncludeStartRow()
          && start.length > 0;
      rows = RowSource.of(target.table().rowScanner(Reads.scan(proto, filter)),
          excludeStart ? start : null);
    }
    long limit = request.getLimitOfRows() > 0 ? request.getLimitOfRows() : Long.MAX_VALUE;
    long maxResultSize = proto.getMaxResultSize() > 0
        ? Math.min(proto.getMaxResultSize(), limits.maxResultSize()) : limits.maxResultSize();
    Scanners.Open scanner = scanners.register(rows, filter, proto.getBatchSize(), maxResultSize,
        proto.getNeedCursorResult(), limit);
    scanner.lock.lock();
    try {
      ScanResponse.Builder response = ScanResponse.newBuilder().setScannerId(scanner.id);
      return fill(call, scanner, request, response);
    } finally {
      scanner.lock.unlock();
    }
  }

  private ScanResponse next(RpcCall call, ScanRequest request) throws Exception {
    long id = request.getScannerId();
    if (request.getCloseScanner() && !scanners.isOpen(id) && request.getNumberOfRows() == 0) {
      return ScanResponse.newBuilder().setScannerId(id).setMoreResults(false)
          .setMoreResultsInRegion(false).build();
    }
    Scanners.Open scanner = scanners.acquire(id);
    try {
      if (request.hasNextCallSeq() && request.getNextCallSeq() != scanner.nextCallSeq) {
        scanners.closeLocked(scanner);
        throw RpcException.doNotRetry(RpcException.OUT_OF_ORDER_SCANNER_NEXT, "Expected"
            + " nextCallSeq: " + scanner.nextCallSeq + " But the nextCallSeq got from client: "
            + request.getNextCallSeq() + "; request=scanner_id: " + id);
      }
      ScanResponse.Builder response = ScanResponse.newBuilder().setScannerId(id);
      if (request.getRenew()) {
        scanner.nextCallSeq++;
        return response.setMoreResults(true).setMoreResultsInRegion(true)
            .setTtl((int) scanners.leaseMillis()).build();
      }
      scanner.nextCallSeq++;
      return fill(call, scanner, request, response);
    } finally {
      scanner.lock.unlock();
    }
  }

  /** Reads rows into the response; the caller holds the scanner's lock. */
  private ScanResponse fill(RpcCall call, Scanners.Open scanner, ScanRequest request,
      ScanResponse.Builder response) throws IOException {
    long started = System.nanoTime();
    boolean blocks = call.codec().usesCellBlocks();
    long rowsWanted = request.hasNumberOfRows() ? request.getNumberOfRows() : Long.MAX_VALUE;
    boolean timed = limits.timed(request);
    long deadline = timed ? limits.deadlineNanos(call, System.nanoTime()) : 0;
    long rows = 0;
    long bytes = 0;
    boolean exhausted = false;
    byte[] heartbeatCursor = null;
    boolean heartbeat = false;
    try {
      while (rows < rowsWanted && bytes < scanner.maxResultSize && !request.getCloseScanner()) {
        if (scanner.remainingRows <= 0) {
          exhausted = true;
          break;
        }
        List<? extends Cell> row = timed ? scanner.rows.next(deadline) : scanner.rows.next();
        if (row == null) {
          if (timed && scanner.rows.stoppedAtDeadline()) {
            heartbeat = true;
            heartbeatCursor = scanner.needCursor ? scanner.rows.lastSkippedRow() : null;
          } else {
            exhausted = true;
          }
          break;
        }
        appendRow(call, scanner, response, row, blocks);
        bytes += ResultEncoder.size(row);
        rows++;
        scanner.remainingRows--;
        if (timed && System.nanoTime() - deadline >= 0 && rows < rowsWanted
            && bytes < scanner.maxResultSize && scanner.remainingRows > 0) {
          heartbeat = true;
          RowView view = scanner.rows.view();
          heartbeatCursor = scanner.needCursor && view != null ? view.row() : null;
          break;
        }
      }
      if (!exhausted && scanner.remainingRows <= 0) {
        exhausted = true;
      }
    } catch (IOException | RuntimeException e) {
      scanners.closeLocked(scanner);
      throw e;
    }
    if (exhausted || request.getCloseScanner()) {
      scanners.closeLocked(scanner);
    }
    if (!request.getCloseScanner()) {
      metrics.recordSince(Operation.SCAN_TIME, started);
      metrics.record(Operation.SCAN_SIZE, bytes);
    }
    if (heartbeat) {
      response.setHeartbeatMessage(true);
      if (heartbeatCursor != null) {
        response.setCursor(ClientProtos.Cursor.newBuilder()
            .setRow(ByteString.copyFrom(heartbeatCursor)));
      }
    }
    return response.setMoreResultsInRegion(!exhausted).setMoreResults(!exhausted)
        .setTtl((int) scanners.leaseMillis()).build();
  }

  /** Adds one row to the response, split into batches when the scan asks for them. */
  private static void appendRow(RpcCall call, Scanners.Open scanner,
      ScanResponse.Builder response, List<? extends Cell> row, boolean blocks) {
    RowView view = scanner.rows.view();
    int batch = scanner.batch > 0 ? scanner.batch : row.size();
    for (int from = 0; from < row.size(); from += batch) {
      int to = Math.min(row.size(), from + batch);
      if (blocks && view != null && !scanner.filter.keyOnly()) {
        ResultEncoder.appendPinned(call.cells(), view, from, to);
        response.addCellsPerResult(to - from);
        response.addPartialFlagPerResult(to < row.size());
      } else if (blocks) {
        ResultEncoder.append(call.cells(), row, from, to, scanner.filter);
        response.addCellsPerResult(to - from);
        response.addPartialFlagPerResult(to < row.size());
      } else {
        ClientProtos.Result.Builder result = ClientProtos.Result.newBuilder();
        for (int i = from; i < to; i++) {
          result.addCell(ResultEncoder.protoCell(row.get(i), scanner.filter));
        }
        response.addResults(result.setPartial(to < row.size()));
      }
    }
  }

  /** Closes the open scanners; calls must have stopped. */
  @Override
  public void close() {
    scanners.close();
  }
}
