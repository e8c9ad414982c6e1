package dev.cellar.client;

import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcResponse;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * A scan over the server's Scan call, as HBase's client runs one: the open asks for the first
 * rows, each next for the next {@code caching} rows (within the maximum result size) with the
 * call sequence number the server expects ({@code next_call_seq}: 0, 1, ... per next), and rows
 * arrive in a cell block ({@code cells_per_result}). Rows are handed out one by one from the
 * last batch. The server closes the scanner itself once it says there are no more rows; a
 * scanner closed earlier sends a close. The server keeps a scanner for its lease ({@code ttl})
 * between calls; {@link #renewLease()} keeps an idle one alive.
 *
 * <p><b>Failures.</b> If the server lost the scanner (lease expired: UnknownScannerException), a
 * next was out of sequence (a retried call the server had answered), or the region moved, the
 * scan reopens after the last row handed out, once per failure, with what is left of its limit;
 * other failures end the scan with the error.
 *
 * <p><b>Memory.</b> Each batch's rows are results pinning that batch's cell block (see {@link
 * ResponseCells}); those not yet handed out are closed with the scanner. Not thread-safe.
 */
final class RemoteScanner implements ResultScanner {

  private final String table;
  private final Scan scan;
  private final Calls calls;
  private final Retrier retrier;
  private final RegionLocator locator;
  private final int caching;
  private final ArrayDeque<Result> rows = new ArrayDeque<>();
  private byte[] region;
  private long scannerId = -1;
  private long nextCallSeq;
  /** Whether the server holds more rows for this scanner (it closed the scanner otherwise). */
  private boolean more = true;
  /** Rows still wanted under the scan's limit. */
  private long remaining;
  /** The key of the last row handed out, where a reopened scan starts (exclusive); or null. */
  private byte[] lastRow;
  private boolean closed;

  RemoteScanner(String table, Scan scan, Calls calls, Retrier retrier, RegionLocator locator) {
    this.table = table;
    this.scan = scan;
    this.calls = calls;
    this.retrier = retrier;
    this.locator = locator;
    int configured = scan.caching() > 0 ? scan.caching()
        : calls.settings().scannerCaching();
    this.remaining = scan.limit() > 0 ? scan.limit() : Long.MAX_VALUE;
    this.caching = (int) Math.min(configured, remaining);
  }

  /** Opens the scanner on the server, which answers with the first rows. */
  void open() throws IOException {
    retrier.run("scan of " + table, table, () -> {
      openOnce();
      return null;
    });
  }

  private void openOnce() throws IOException {
    region = locator.region(table);
    ClientProtos.Scan.Builder proto = Protos.scan(scan, caching,
        calls.settings().scannerMaxResultSize()).toBuilder();
    if (lastRow != null) {
      proto.setStartRow(Protos.bytes(lastRow)).setIncludeStartRow(false);
    }
    ClientProtos.ScanRequest.Builder request = ClientProtos.ScanRequest.newBuilder()
        .setRegion(Protos.region(region)).setScan(proto)
        .setNumberOfRows(rowsPerCall()).setCloseScanner(false)
        .setClientHandlesPartials(true).setClientHandlesHeartbeats(true);
    if (remaining != Long.MAX_VALUE) {
      request.setLimitOfRows((int) Math.min(Integer.MAX_VALUE, remaining));
    }
    more = true;
    nextCallSeq = 0;
    scannerId = -1;
    receive(calls.call("Scan", request.build(), null, ClientProtos.ScanResponse.parser()));
  }

  private int rowsPerCall() {
    return (int) Math.min(caching, remaining);
  }

  @Override
  public Result next() throws IOException {
    if (closed) {
      throw new IllegalStateException("the scanner was closed");
    }
    while (rows.isEmpty() && more && remaining > 0) {
      fetch();
    }
    Result row = rows.poll();
    if (row != null) {
      lastRow = row.row();
      remaining--;
    }
    return row;
  }

  private void fetch() throws IOException {
    ClientProtos.ScanRequest request = ClientProtos.ScanRequest.newBuilder()
        .setScannerId(scannerId).setNumberOfRows(rowsPerCall()).setCloseScanner(false)
        .setNextCallSeq(nextCallSeq).setClientHandlesPartials(true)
        .setClientHandlesHeartbeats(true).build();
    RpcResponse<ClientProtos.ScanResponse> response;
    try {
      response = calls.call("Scan", request, null, ClientProtos.ScanResponse.parser());
    } catch (RemoteException e) {
      if (!lostScanner(e)) {
        throw e;
      }
      if (e.is("NotServingRegionException")) {
        locator.forget(table);
      }
      open();
      return;
    } catch (IOException e) {
      more = false;
      throw e;
    }
    nextCallSeq++;
    receive(response);
  }

  private static boolean lostScanner(RemoteException e) {
    return e.is("UnknownScannerException") || e.is("OutOfOrderScannerNextException")
        || e.is("ScannerResetException") || e.is("LeaseException")
        || e.is("NotServingRegionException");
  }

  /** Takes a response's rows and state. */
  private void receive(RpcResponse<ClientProtos.ScanResponse> response) throws IOException {
    ClientProtos.ScanResponse message = response.message();
    if (message.hasScannerId()) {
      scannerId = message.getScannerId();
    }
    try (ResponseCells cells = new ResponseCells(response.cells())) {
      if (message.getCellsPerResultCount() > 0) {
        for (int count : message.getCellsPerResultList()) {
          rows.add(cells.next(count));
        }
      } else {
        for (ClientProtos.Result result : message.getResultsList()) {
          rows.add(cells.result(result));
        }
      }
    }
    more = message.getMoreResultsInRegion() && (!message.hasMoreResults()
        || message.getMoreResults());
  }

  /** Keeps the server's scanner alive while the caller does not read. */
  public void renewLease() throws IOException {
    if (closed || !more || scannerId < 0) {
      return;
    }
    ClientProtos.ScanRequest request = ClientProtos.ScanRequest.newBuilder()
        .setScannerId(scannerId).setNumberOfRows(0).setRenew(true)
        .setNextCallSeq(nextCallSeq).build();
    calls.call("Scan", request, null, ClientProtos.ScanResponse.parser()).release();
    nextCallSeq++;
  }

  /** Closes the rows not handed out and, if the server still holds the scanner, closes it. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    rows.forEach(Result::close);
    rows.clear();
    if (more && scannerId >= 0) {
      ClientProtos.ScanRequest request = ClientProtos.ScanRequest.newBuilder()
          .setScannerId(scannerId).setNumberOfRows(0).setCloseScanner(true).build();
      calls.rpc().call(Calls.CLIENT_SERVICE, "Scan", request, null,
          ClientProtos.ScanResponse.parser(), calls.settings().rpcTimeoutMillis())
          .thenAccept(RpcResponse::release);
    }
  }

  @Override
  public String toString() {
    return "RemoteScanner[" + table + ", scanner " + scannerId + ", last row "
        + (lastRow == null ? "none" : Arrays.toString(lastRow)) + "]";
  }
}
