package dev.cellar.server.rpc;

/**
 * The exceptions HBase's IPC metrics count by type ({@code exceptions.RegionTooBusyException},
 * {@code exceptions.callQueueTooBig}, ...), each with its metric name and the exception class a
 * client receives; {@link #OTHER} ({@code exceptions.otherExceptions}) takes every other class.
 */
enum RpcExceptionKind {
  OUT_OF_ORDER_SCANNER_NEXT(
      "exceptions.OutOfOrderScannerNextException", RpcException.OUT_OF_ORDER_SCANNER_NEXT),
  REGION_TOO_BUSY(
      "exceptions.RegionTooBusyException", "org.apache.hadoop.hbase.RegionTooBusyException"),
  UNKNOWN_SCANNER("exceptions.UnknownScannerException", RpcException.UNKNOWN_SCANNER),
  SCANNER_RESET(
      "exceptions.ScannerResetException",
      "org.apache.hadoop.hbase.exceptions.ScannerResetException"),
  FAILED_SANITY_CHECK(
      "exceptions.FailedSanityCheckException",
      "org.apache.hadoop.hbase.exceptions.FailedSanityCheckException"),
  REGION_MOVED(
      "exceptions.RegionMovedException", "org.apache.hadoop.hbase.exceptions.RegionMovedException"),
  NOT_SERVING_REGION("exceptions.NotServingRegionException", RpcException.NOT_SERVING_REGION),
  MULTI_RESPONSE_TOO_LARGE(
      "exceptions.multiResponseTooLarge", "org.apache.hadoop.hbase.MultiActionResultTooLarge"),
  CALL_QUEUE_TOO_BIG("exceptions.callQueueTooBig", RpcException.CALL_QUEUE_TOO_BIG),
  QUOTA_EXCEEDED(
      "exceptions.quotaExceeded", "org.apache.hadoop.hbase.quotas.QuotaExceededException"),
  RPC_THROTTLING(
      "exceptions.rpcThrottling", "org.apache.hadoop.hbase.quotas.RpcThrottlingException"),
  CALL_DROPPED("exceptions.callDropped", "org.apache.hadoop.hbase.CallDroppedException"),
  CALL_TIMED_OUT("exceptions.callTimedOut", "org.apache.hadoop.hbase.ipc.CallTimeoutException"),
  REQUEST_TOO_BIG("exceptions.requestTooBig", RpcException.REQUEST_TOO_BIG),
  OTHER("exceptions.otherExceptions", null);

  private static final RpcExceptionKind[] KINDS = values();

  private final String metricName;
  private final String className;

  RpcExceptionKind(String metricName, String className) {
    this.metricName = metricName;
    this.className = className;
  }

  String metricName() {
    return metricName;
  }

  /** The kind of an exception of class {@code className}, as the client will see it. */
  static RpcExceptionKind of(String className) {
    for (RpcExceptionKind kind : KINDS) {
      if (kind.className != null && kind.className.equals(className)) {
        return kind;
      }
    }
    return OTHER;
  }
}
