package dev.cellar.server.service;

import dev.cellar.server.rpc.RpcCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;

/**
 * How long and how much one Scan call may read before it answers, as HBase's region server decides
 * it ({@code RSRpcServices.scan} in 2.6).
 *
 * <p><b>Time.</b> A client that handles heartbeats and partial results gets an answer within half
 * of the shorter of the scanner lease and what is left of the call's own timeout (the request
 * header's, else {@code hbase.rpc.timeout}, less the time since the call was read), but never less
 * than {@code minimumTimeLimitMillis}: a scan whose filter skips rows or cells for longer than that
 * answers with what it has, flagged as a heartbeat, and goes on at the next call. The client's scan
 * thereby never waits past its own scanner timeout when the two sides share the lease period.
 *
 * <p><b>Size.</b> A call returns cells until they reach the scan's {@code max_result_size} or the
 * server's {@code maxResultSize}, whichever is smaller. For a client that handles partial results
 * the limit applies between cells, as in HBase: the call stops after the cell that reaches it,
 * inside its row if the row goes on, and the next call resumes there. For other clients it applies
 * between rows: the row that crosses it is returned whole.
 *
 * <p>The time limit, too, stops a call inside a row (see {@link ScanHandler}), looked at every
 * {@value dev.cellar.row.RowBudget#CELLS_PER_DEADLINE_CHECK} cells the scan examines, between
 * families and between rows; a filter that needs whole rows is limited between rows only.
 *
 * @param leaseMillis the scanner lease ({@code hbase.client.scanner.timeout.period})
 * @param rpcTimeoutMillis a call's timeout when its header gives none ({@code hbase.rpc.timeout})
 * @param maxResultSize the most cell bytes one call returns ({@code
 *     hbase.server.scanner.max.result.size})
 * @param minimumTimeLimitMillis the shortest time a call may scan ({@code
 *     hbase.region.server.rpc.minimum.scan.time.limit.delta})
 * @param heartbeats whether calls are cut short by time at all ({@code
 *     cellar.server.scanner.heartbeats}; false scans to the row and size limits however long it
 *     takes)
 */
public record ScanLimits(
    long leaseMillis,
    long rpcTimeoutMillis,
    long maxResultSize,
    long minimumTimeLimitMillis,
    boolean heartbeats) {

  public static final long DEFAULT_LEASE_MILLIS = 60_000;
  public static final long DEFAULT_RPC_TIMEOUT_MILLIS = 60_000;
  public static final long DEFAULT_MAX_RESULT_SIZE = 100L * 1024 * 1024;
  public static final long DEFAULT_MINIMUM_TIME_LIMIT_MILLIS = 10;

  /**
   * Whether a call of {@code request} is cut short by time: the client takes heartbeats and partial
   * results (as HBase requires both), and heartbeats are on.
   */
  boolean timed(ScanRequest request) {
    return heartbeats && request.getClientHandlesHeartbeats() && request.getClientHandlesPartials();
  }

  /** When a {@link #timed} Scan call must answer, as a {@link System#nanoTime()} value. */
  long deadlineNanos(RpcCall call, long nowNanos) {
    return deadlineNanos(call.timeoutMillis(), call.receivedNanos(), nowNanos);
  }

  /**
   * When a call with the client's {@code callTimeoutMillis} (0: none given), read at {@code
   * receivedNanos}, must answer.
   */
  long deadlineNanos(long callTimeoutMillis, long receivedNanos, long nowNanos) {
    long timeout = callTimeoutMillis > 0 ? callTimeoutMillis : rpcTimeoutMillis;
    long remaining =
        Math.max(minimumTimeLimitMillis, timeout - (nowNanos - receivedNanos) / 1_000_000);
    long limit = Math.max(Math.min(leaseMillis, remaining) / 2, minimumTimeLimitMillis);
    return nowNanos + limit * 1_000_000;
  }
}
