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
 * The Scan call: opens a scanner, reads its next results, renews its lease or closes it. Scanners
 * keep their state in {@link Scanners}: the rows (and the place inside a row a call stopped at),
 * the client's call sequence number, the rows left under the scan's limit and the lease. An
 * exhausted scanner is closed and says so ({@code more_results_in_region} false), as the client
 * then sends no close. A call out of sequence closes the scanner and gets
 * OutOfOrderScannerNextException, so the client reopens the scan.
 *
 * <p><b>Results and partial rows</b>, as HBase's region server answers (2.6, {@code
 * RSRpcServices.scan} with its ScannerContext): a call reads one part of a row after another, each
 * a result, until it has the request's number of results, its cells reach the size limit (the
 * smaller of the scan's {@code max_result_size} and the server's, {@link ScanLimits}) or its time
 * limit passes. A part is a whole row, or less:
 *
 * <ul>
 *   <li>with {@code batch_size}, at most that many cells, always;
 *   <li>for a client that handles partial results ({@code client_handles_partials}), the cells up
 *       to the one that reaches the size limit, and, for one that also takes heartbeats, the cells
 *       read when the time limit passes: the limits apply between cells, so a row of any width
 *       comes in pieces of about the limit. For other clients they apply between rows: the row that
 *       crosses the size limit comes whole, and time does not limit the call.
 * </ul>
 *
 * A result that does not end its row is flagged partial ({@code partial_flag_per_result}, HBase's
 * {@code mayHaveMoreCellsInRow}) and the next call goes on from the next cell of the row. A scan
 * whose filter needs whole rows ({@code hasFilterRow}: page, single-column-value, while-match,
 * filter-all and lists holding one) gets whole rows, as from HBase, cut into batches here when it
 * asks for them (HBase's client refuses such a batch scan). A row counts against the scan's limit
 * once its last part is read. The partial flag means "may have more cells": the rest of a row may
 * turn out empty, and the client learns the row is over from the next row, or from the end of the
 * scan, which clears the flag of the response's last result.
 *
 * <p><b>Heartbeats.</b> For a client that takes heartbeats and partial results, a call that reaches
 * its {@link ScanLimits time limit} answers with what it has (maybe nothing, when a filter skipped
 * every row or cell it read), {@code heartbeat_message} set and more results to come; with the
 * {@code cursor} (the last row the scan examined) when the scan asked for one. The scanner stays
 * where it stopped, between rows or inside one, and the next call goes on from there.
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
    boolean moreRegions = false;
    if (Regions.isMeta(request.getRegion())) {
      filter = ConvertedFilter.NONE;
      rows = meta.scan(proto);
    } else {
      Regions.Target target = regions.target(request.getRegion());
      for (ClientProtos.Column column : proto.getColumnList()) {
        Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
      }
      filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter() : null);
      byte[] start = proto.getStartRow().toByteArray();
      boolean excludeStart =
          proto.hasIncludeStartRow() && !proto.getIncludeStartRow() && start.length > 0;
      RegionScans.Clipped clipped =
          RegionScans.clip(Reads.scan(proto, filter), excludeStart, target.region());
      rows = RowSource.of(target.table().rowScanner(clipped.scan()), clipped.excludedStart());
      moreRegions = clipped.moreRegions();
    }
    long limit = request.getLimitOfRows() > 0 ? request.getLimitOfRows() : Long.MAX_VALUE;
    long maxResultSize =
        proto.getMaxResultSize() > 0
            ? Math.min(proto.getMaxResultSize(), limits.maxResultSize())
            : limits.maxResultSize();
    Scanners.Open scanner =
        scanners.register(
            rows,
            filter,
            proto.getBatchSize(),
            maxResultSize,
            proto.getNeedCursorResult(),
            limit,
            moreRegions,
            call.connection());
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
    if (request.getCloseScanner()
        && !scanners.isOpen(id, call.connection())
        && request.getNumberOfRows() == 0) {
      return ScanResponse.newBuilder()
          .setScannerId(id)
          .setMoreResults(false)
          .setMoreResultsInRegion(false)
          .build();
    }
    Scanners.Open scanner = scanners.acquire(id, call.connection());
    try {
      if (request.hasNextCallSeq() && request.getNextCallSeq() != scanner.nextCallSeq) {
        scanners.closeLocked(scanner);
        throw RpcException.doNotRetry(
            RpcException.OUT_OF_ORDER_SCANNER_NEXT,
            "Expected"
                + " nextCallSeq: "
                + scanner.nextCallSeq
                + " But the nextCallSeq got from client: "
                + request.getNextCallSeq()
                + "; request=scanner_id: "
                + id);
      }
      ScanResponse.Builder response = ScanResponse.newBuilder().setScannerId(id);
      if (request.getRenew()) {
        scanner.nextCallSeq++;
        return response
            .setMoreResults(true)
            .setMoreResultsInRegion(true)
            .setTtl((int) scanners.leaseMillis())
            .build();
      }
      scanner.nextCallSeq++;
      return fill(call, scanner, request, response);
    } finally {
      scanner.lock.unlock();
    }
  }

  /**
   * Reads results into the response, as HBase's region server does ({@code RSRpcServices.scan}):
   * one part of a row after another (a whole row, a batch of {@code batch_size} cells or a part cut
   * by the size or time limit), each a result, until the request's number of results, the size
   * limit or the time limit; the caller holds the scanner's lock.
   */
  private ScanResponse fill(
      RpcCall call, Scanners.Open scanner, ScanRequest request, ScanResponse.Builder response)
      throws IOException {
    long started = System.nanoTime();
    boolean blocks = call.codec().usesCellBlocks();
    long resultsWanted = request.hasNumberOfRows() ? request.getNumberOfRows() : Long.MAX_VALUE;
    boolean partials = request.getClientHandlesPartials();
    boolean timed = limits.timed(request);
    long deadline = timed ? limits.deadlineNanos(call, System.nanoTime()) : 0;
    int cellsPerResult = scanner.batch > 0 ? scanner.batch : Integer.MAX_VALUE;
    long results = 0;
    long bytes = 0;
    boolean exhausted = false;
    boolean limitReached = false;
    boolean heartbeat = false;
    try {
      while (results < resultsWanted && !request.getCloseScanner()) {
        if (scanner.remainingRows <= 0) {
          exhausted = true;
          limitReached = true;
          break;
        }
        long sizeLeft = partials ? scanner.maxResultSize - bytes : Long.MAX_VALUE;
        List<? extends Cell> part =
            timed
                ? scanner.rows.nextPart(cellsPerResult, sizeLeft, deadline)
                : scanner.rows.nextPart(cellsPerResult, sizeLeft);
        if (part == null) {
          heartbeat = timed && scanner.rows.stoppedAtDeadline();
          exhausted = !heartbeat;
          break;
        }
        boolean inRow = scanner.rows.stoppedInRow();
        if (!part.isEmpty()) {
          results += appendPart(call, scanner, response, part, inRow, blocks);
          bytes += ResultEncoder.size(part);
        }
        if (!inRow && --scanner.remainingRows <= 0) {
          exhausted = true;
          limitReached = true;
          break;
        }
        if (timed && System.nanoTime() - deadline >= 0) {
          heartbeat = true;
          break;
        }
        if (bytes >= scanner.maxResultSize) {
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      scanners.closeLocked(scanner);
      throw e;
    }
    if (exhausted) {
      completeLastResult(response, blocks);
    }
    byte[] cursor = heartbeat && scanner.needCursor ? scanner.rows.cursorRow() : null;
    if (exhausted || request.getCloseScanner()) {
      scanners.closeLocked(scanner);
    }
    if (!request.getCloseScanner()) {
      metrics.recordSince(Operation.SCAN_TIME, started);
      metrics.record(Operation.SCAN_SIZE, bytes);
    }
    if (heartbeat) {
      response.setHeartbeatMessage(true);
      if (cursor != null) {
        response.setCursor(ClientProtos.Cursor.newBuilder().setRow(ByteString.copyFrom(cursor)));
      }
    }
    return response
        .setMoreResultsInRegion(!exhausted)
        .setMoreResults(
            !exhausted || (!limitReached && scanner.moreRegions && !filterDone(scanner)))
        .setTtl((int) scanners.leaseMillis())
        .build();
  }

  /** Whether the scan's filter has ended the scan (HBase's {@code filterAllRemaining}). */
  private static boolean filterDone(Scanners.Open scanner) {
    return scanner.filter.filter() != null && scanner.filter.filter().filterAllRemaining();
  }

  /**
   * Adds one part of a row to the response as results of at most {@code batch_size} cells (a filter
   * that needs whole rows gets its rows whole, then cut into batches here); every result but the
   * row's last is flagged partial. Returns the number of results added.
   */
  private static int appendPart(
      RpcCall call,
      Scanners.Open scanner,
      ScanResponse.Builder response,
      List<? extends Cell> part,
      boolean inRow,
      boolean blocks) {
    RowView view = scanner.rows.view();
    int batch = scanner.batch > 0 ? scanner.batch : part.size();
    int added = 0;
    for (int from = 0; from < part.size(); from += batch) {
      int to = Math.min(part.size(), from + batch);
      boolean partial = to < part.size() || inRow;
      if (blocks && view != null && !scanner.filter.keyOnly()) {
        ResultEncoder.appendPinned(call.cells(), view, from, to);
        response.addCellsPerResult(to - from);
        response.addPartialFlagPerResult(partial);
      } else if (blocks) {
        ResultEncoder.append(call.cells(), part, from, to, scanner.filter);
        response.addCellsPerResult(to - from);
        response.addPartialFlagPerResult(partial);
      } else {
        ClientProtos.Result.Builder result = ClientProtos.Result.newBuilder();
        for (int i = from; i < to; i++) {
          result.addCell(ResultEncoder.protoCell(part.get(i), scanner.filter));
        }
        response.addResults(result.setPartial(partial));
      }
      added++;
    }
    return added;
  }

  /**
   * Clears the partial flag of the response's last result, if it has one, in a response that ends
   * the scan: the rest of that result's row held nothing the scan returns. A result saying its row
   * goes on in a response saying nothing does would contradict itself (HBASE-21206, which HBase
   * clears the same way; a row whose rest is empty but followed by another keeps its flag, as the
   * next row tells the client the row is over).
   */
  private static void completeLastResult(ScanResponse.Builder response, boolean blocks) {
    if (blocks) {
      int last = response.getPartialFlagPerResultCount() - 1;
      if (last >= 0) {
        response.setPartialFlagPerResult(last, false);
      }
    } else {
      int last = response.getResultsCount() - 1;
      if (last >= 0) {
        response.setResults(last, response.getResults(last).toBuilder().setPartial(false));
      }
    }
  }

  /** Closes the open scanners; calls must have stopped. */
  @Override
  public void close() {
    scanners.close();
  }
}
