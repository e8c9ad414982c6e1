package dev.cellar.client;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.RowReader;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.Scan;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcResponse;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.Pins;
import dev.cellar.row.RowStream;
import dev.cellar.spi.ApiAccess;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Arrays;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * A scan over the server's Scan call, as HBase's client runs one: the open asks for the first rows,
 * each next for the next {@code caching} rows (within the maximum result size) with the call
 * sequence number the server expects ({@code next_call_seq}: 0, 1, ... per next), and rows arrive
 * in a cell block ({@code cells_per_result}). Rows are handed out one by one from the batches
 * received, as {@link Result}s ({@link #next()}) or into a RowScanner's row holder ({@link
 * #next(CollectedRow)}). The server closes the scanner itself once it says there are no more rows;
 * a scanner closed earlier sends a close. The server keeps a scanner for its lease ({@code ttl})
 * between calls; {@link #renewLease()} keeps an idle one alive.
 *
 * <p><b>Regions.</b> The server's scanner reads one region of the table. When it says the region is
 * done ({@code more_results_in_region} false) but the scan is not ({@code more_results} true), the
 * scan opens a scanner in the next region (the previous one, reversed), after the last row handed
 * out, as HBase's client moves from region to region.
 *
 * <p><b>Partial rows.</b> The client takes partial results ({@code client_handles_partials}), as
 * HBase's does, so the server splits a row wider than the call's size (or not read in its time)
 * into results flagged partial, the rest following in the next calls: this scanner puts them
 * together, handing out whole rows.
 *
 * <p><b>Failures.</b> If the server lost the scanner (lease expired: UnknownScannerException), a
 * next was out of sequence (a retried call the server had answered), or the region moved, the scan
 * reopens after the last row handed out, once per failure, with what is left of its limit; other
 * failures end the scan with the error.
 *
 * <p><b>Memory.</b> A batch keeps its cell block (see {@link ResponseCells}) until its last row is
 * handed out; each row handed out pins the block itself, as a result or in the row holder, so the
 * block goes back to the pool once the batch is done and its rows are closed or moved past. Batches
 * not handed out are released with the scanner. Not thread-safe.
 */
final class RemoteScanner implements ResultScanner, RowStream {

  /** A response's rows not yet handed out. */
  private static final class Batch implements AutoCloseable {
    final ResponseCells cells;
    final ClientProtos.ScanResponse message;
    final int rows;
    int next;

    Batch(ResponseCells cells, ClientProtos.ScanResponse message) {
      this.cells = cells;
      this.message = message;
      this.rows =
          message.getCellsPerResultCount() > 0
              ? message.getCellsPerResultCount()
              : message.getResultsCount();
    }

    boolean exhausted() {
      return next == rows;
    }

    Result nextResult() throws IOException {
      int row = next++;
      return message.getCellsPerResultCount() > 0
          ? cells.next(message.getCellsPerResult(row))
          : cells.result(message.getResults(row));
    }

    /** Moves the next result into {@code into}; returns whether it was flagged partial. */
    boolean nextInto(CollectedRow into) throws IOException {
      boolean partial = nextPartial();
      int row = next++;
      if (message.getCellsPerResultCount() > 0) {
        cells.moveInto(message.getCellsPerResult(row), into);
      } else {
        cells.moveInto(message.getResults(row), into);
      }
      return partial;
    }

    /**
     * Whether the next result is flagged partial: its row may go on in the results after it
     * (HBase's {@code mayHaveMoreCellsInRow}).
     */
    boolean nextPartial() {
      if (message.getCellsPerResultCount() > 0) {
        return next < message.getPartialFlagPerResultCount()
            && message.getPartialFlagPerResult(next);
      }
      return message.getResults(next).getPartial();
    }

    /** Whether the next result holds cells of the row of {@code cell}. */
    boolean nextIsOfRow(Cell cell) {
      if (message.getCellsPerResultCount() == 0 && message.getResults(next).getCellCount() > 0) {
        byte[] row = message.getResults(next).getCell(0).getRow().toByteArray();
        return Bytes.equals(cell.segment(), cell.rowOffset(), cell.rowLength(), row);
      }
      int count =
          message.getCellsPerResultCount() > 0
              ? message.getCellsPerResult(next)
              : message.getResults(next).getAssociatedCellCount();
      Cell first = cells.peek();
      return count > 0 && first != null && CellComparator.compareRows(first, cell) == 0;
    }

    @Override
    public void close() {
      cells.close();
    }
  }

  private final String table;
  private final Scan scan;
  private final Calls calls;
  private final Retrier retrier;
  private final RegionLocator locator;
  private final int caching;
  private final ArrayDeque<Batch> batches = new ArrayDeque<>();

  /** The region the server's scanner reads. */
  private RegionLocator.Located region;

  /**
   * The region the scan goes on in once the server's scanner is done with its own (its region's
   * rows are read and the server said the scan has more), or null.
   */
  private RegionLocator.Located nextRegion;

  private long scannerId = -1;
  private long nextCallSeq;

  /** Whether the server holds more rows for this scanner (it closed the scanner otherwise). */
  private boolean more = true;

  /** Rows still wanted under the scan's limit. */
  private long remaining;

  /**
   * The key of the last row handed out (its first {@code lastRowLength} bytes), where a reopened
   * scan starts (exclusive); none while the length is -1. Reused from row to row.
   */
  private byte[] lastRow = new byte[64];

  private int lastRowLength = -1;

  /** The number of times the scan was opened on the server, to tell a reopen mid-row. */
  private long opens;

  /** Where the parts of a row split across results are put together for {@link #next()}. */
  private final CollectedRow assembled = new CollectedRow();

  private boolean closed;

  RemoteScanner(String table, Scan scan, Calls calls, Retrier retrier, RegionLocator locator) {
    this.table = table;
    this.scan = scan;
    this.calls = calls;
    this.retrier = retrier;
    this.locator = locator;
    int configured = scan.caching() > 0 ? scan.caching() : calls.settings().scannerCaching();
    this.remaining = scan.limit() > 0 ? scan.limit() : Long.MAX_VALUE;
    this.caching = (int) Math.min(configured, remaining);
  }

  /** Opens the scanner on the server, which answers with the first rows. */
  void open() throws IOException {
    retrier.run(
        "scan of " + table,
        table,
        () -> {
          openOnce();
          return null;
        });
  }

  private void openOnce() throws IOException {
    opens++;
    region = nextRegion != null ? nextRegion : startRegion();
    nextRegion = null;
    ClientProtos.Scan.Builder proto =
        Protos.scan(scan, caching, calls.settings().scannerMaxResultSize()).toBuilder();
    if (lastRowLength >= 0) {
      proto
          .setStartRow(Protos.bytes(Arrays.copyOf(lastRow, lastRowLength)))
          .setIncludeStartRow(false);
    }
    ClientProtos.ScanRequest.Builder request =
        ClientProtos.ScanRequest.newBuilder()
            .setRegion(Protos.region(region.name()))
            .setScan(proto)
            .setNumberOfRows(rowsPerCall())
            .setCloseScanner(false)
            .setClientHandlesPartials(true)
            .setClientHandlesHeartbeats(true);
    if (remaining != Long.MAX_VALUE) {
      request.setLimitOfRows((int) Math.min(Integer.MAX_VALUE, remaining));
    }
    more = true;
    nextCallSeq = 0;
    scannerId = -1;
    receive(calls.call("Scan", request.build(), null, ClientProtos.ScanResponse.parser()));
  }

  /**
   * The region a scan (re)opens in: the one holding the last row handed out, else the one holding
   * the scan's start row (the table's last region for a reversed scan from the table's end).
   */
  private RegionLocator.Located startRegion() throws IOException {
    byte[] row = lastRowLength >= 0 ? Arrays.copyOf(lastRow, lastRowLength) : scan.startRow();
    return scan.reversed() && row.length == 0 ? locator.last(table) : locator.locate(table, row);
  }

  private int rowsPerCall() {
    return (int) Math.min(caching, remaining);
  }

  @Override
  public Result next() throws IOException {
    Batch batch = batchWithRow();
    if (batch == null) {
      return null;
    }
    Result row;
    if (batch.nextPartial()) {
      try {
        assemble(batch, assembled);
        Pins pins = new Pins();
        row = results().result(assembled.detach(pins), pins);
      } finally {
        assembled.clear();
      }
    } else {
      row = batch.nextResult();
    }
    if (!row.isEmpty()) {
      remember(row.rawCells().getFirst());
    }
    remaining--;
    return row;
  }

  /** Appends the next row's cells to {@code into} as views pinning their batches' blocks. */
  @Override
  public boolean next(CollectedRow into) throws IOException {
    Batch batch = batchWithRow();
    if (batch == null) {
      return false;
    }
    int first = into.size();
    assemble(batch, into);
    if (into.size() > first) {
      remember(into.get(first));
    }
    remaining--;
    return true;
  }

  /**
   * Moves the row of {@code batch}'s next result into {@code into}: a result flagged partial is
   * followed by the rest of its row, in this batch or the responses after it, unless the next
   * result is another row's (the rest held nothing the scan returns) or the scan ends. If the scan
   * is reopened meanwhile (the server lost the scanner), it starts again at this row, after the
   * last row handed out: the parts taken are dropped and the row is read anew.
   */
  private void assemble(Batch batch, CollectedRow into) throws IOException {
    int first = into.size();
    long opened = opens;
    boolean partial = batch.nextInto(into);
    while (partial) {
      Batch next = batchWithRow();
      if (opens != opened) {
        into.cells().subList(first, into.size()).clear();
        opened = opens;
      } else if (next == null || !next.nextIsOfRow(into.get(first))) {
        return;
      }
      if (next == null) {
        return;
      }
      partial = next.nextInto(into);
    }
  }

  /** The batch holding the next row, fetching batches as needed; null at the end of the scan. */
  private Batch batchWithRow() throws IOException {
    if (closed) {
      throw new IllegalStateException("the scanner was closed");
    }
    while (true) {
      Batch batch = batches.peek();
      if (batch != null && !batch.exhausted()) {
        return remaining > 0 ? batch : null;
      }
      if (batch != null) {
        batches.poll().close();
        continue;
      }
      if (!more || remaining <= 0) {
        return null;
      }
      fetch();
    }
  }

  /** Copies the row key of {@code cell} as the last row handed out. */
  private void remember(Cell cell) {
    int length = cell.rowLength();
    if (lastRow.length < length) {
      lastRow = new byte[Math.max(length, 2 * lastRow.length)];
    }
    MemorySegment.copy(cell.segment(), ValueLayout.JAVA_BYTE, cell.rowOffset(), lastRow, 0, length);
    lastRowLength = length;
  }

  private void fetch() throws IOException {
    if (nextRegion != null) {
      open();
      return;
    }
    ClientProtos.ScanRequest request =
        ClientProtos.ScanRequest.newBuilder()
            .setScannerId(scannerId)
            .setNumberOfRows(rowsPerCall())
            .setCloseScanner(false)
            .setNextCallSeq(nextCallSeq)
            .setClientHandlesPartials(true)
            .setClientHandlesHeartbeats(true)
            .build();
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
    return e.is("UnknownScannerException")
        || e.is("OutOfOrderScannerNextException")
        || e.is("ScannerResetException")
        || e.is("LeaseException")
        || e.is("NotServingRegionException");
  }

  /** Takes a response's rows and state. */
  private void receive(RpcResponse<ClientProtos.ScanResponse> response) throws IOException {
    ClientProtos.ScanResponse message = response.message();
    if (message.hasScannerId()) {
      scannerId = message.getScannerId();
    }
    Batch batch = new Batch(new ResponseCells(response.cells()), message);
    if (batch.exhausted()) {
      batch.close();
    } else {
      batches.add(batch);
    }
    boolean moreResults = !message.hasMoreResults() || message.getMoreResults();
    more = message.getMoreResultsInRegion() && moreResults;
    if (!message.getMoreResultsInRegion() && moreResults) {
      nextRegion = locator.next(table, region, scan.reversed());
      more = nextRegion != null;
      scannerId = -1; // the server closed its scanner with the region done
    }
  }

  /** Keeps the server's scanner alive while the caller does not read. */
  public void renewLease() throws IOException {
    if (closed || !more || scannerId < 0) {
      return;
    }
    ClientProtos.ScanRequest request =
        ClientProtos.ScanRequest.newBuilder()
            .setScannerId(scannerId)
            .setNumberOfRows(0)
            .setRenew(true)
            .setNextCallSeq(nextCallSeq)
            .build();
    calls.call("Scan", request, null, ClientProtos.ScanResponse.parser()).release();
    nextCallSeq++;
  }

  /**
   * Releases the batches' rows not handed out and, if the server still holds the scanner, closes
   * it.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    assembled.clear();
    batches.forEach(Batch::close);
    batches.clear();
    if (more && scannerId >= 0) {
      ClientProtos.ScanRequest request =
          ClientProtos.ScanRequest.newBuilder()
              .setScannerId(scannerId)
              .setNumberOfRows(0)
              .setCloseScanner(true)
              .build();
      calls
          .rpc()
          .call(
              Calls.CLIENT_SERVICE,
              "Scan",
              request,
              null,
              ClientProtos.ScanResponse.parser(),
              calls.settings().rpcTimeoutMillis())
          .thenAccept(RpcResponse::release);
    }
  }

  private static ApiAccess.Makers<Get, Result, RowReader, RowScanner, RowView> results() {
    return ApiAccess.makers();
  }

  @Override
  public String toString() {
    return "RemoteScanner["
        + table
        + ", scanner "
        + scannerId
        + ", last row "
        + (lastRowLength < 0 ? "none" : Arrays.toString(Arrays.copyOf(lastRow, lastRowLength)))
        + "]";
  }
}
