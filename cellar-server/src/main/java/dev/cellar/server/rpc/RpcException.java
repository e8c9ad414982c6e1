package dev.cellar.server.rpc;

/**
 * A failed call as the client sees it: the name of the HBase exception class the client re-creates
 * (its retry rules key on that class), a one-line message, and the two flags of HBase's {@code
 * ExceptionResponse}. The factories name the classes the server uses; a message says what was wrong
 * in the request, never how the server is built.
 */
public final class RpcException extends Exception {

  private static final long serialVersionUID = 1L;

  public static final String DO_NOT_RETRY = "org.apache.hadoop.hbase.DoNotRetryIOException";
  public static final String IO = "java.io.IOException";
  public static final String NOT_SERVING_REGION =
      "org.apache.hadoop.hbase.NotServingRegionException";
  public static final String UNKNOWN_SCANNER = "org.apache.hadoop.hbase.UnknownScannerException";
  public static final String OUT_OF_ORDER_SCANNER_NEXT =
      "org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException";
  public static final String TABLE_NOT_FOUND = "org.apache.hadoop.hbase.TableNotFoundException";
  public static final String TABLE_EXISTS = "org.apache.hadoop.hbase.TableExistsException";
  public static final String NAMESPACE_EXISTS = "org.apache.hadoop.hbase.NamespaceExistException";
  public static final String NAMESPACE_NOT_FOUND =
      "org.apache.hadoop.hbase.NamespaceNotFoundException";

  /** HBase's master class (the client has no such class and sees a DoNotRetryIOException). */
  public static final String CONSTRAINT = "org.apache.hadoop.hbase.constraint.ConstraintException";

  public static final String TABLE_NOT_ENABLED = "org.apache.hadoop.hbase.TableNotEnabledException";
  public static final String TABLE_NOT_DISABLED =
      "org.apache.hadoop.hbase.TableNotDisabledException";
  public static final String NO_SUCH_COLUMN_FAMILY =
      "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException";
  public static final String FATAL_CONNECTION =
      "org.apache.hadoop.hbase.ipc.FatalConnectionException";
  public static final String UNSUPPORTED_CELL_CODEC =
      "org.apache.hadoop.hbase.ipc.UnsupportedCellCodecException";
  public static final String UNSUPPORTED_COMPRESSION_CODEC =
      "org.apache.hadoop.hbase.ipc.UnsupportedCompressionCodecException";
  public static final String CALL_QUEUE_TOO_BIG =
      "org.apache.hadoop.hbase.CallQueueTooBigException";
  public static final String REQUEST_TOO_BIG =
      "org.apache.hadoop.hbase.exceptions.RequestTooBigException";
  public static final String WRONG_REGION =
      "org.apache.hadoop.hbase.regionserver.WrongRegionException";
  public static final String SERVER_NOT_RUNNING_YET =
      "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException";

  private final String className;
  private final boolean doNotRetry;
  private final boolean serverOverloaded;

  public RpcException(
      String className, String message, boolean doNotRetry, boolean serverOverloaded) {
    super(message, null, false, false);
    this.className = className;
    this.doNotRetry = doNotRetry;
    this.serverOverloaded = serverOverloaded;
  }

  /** A permanent failure of this request: the client gives up at once. */
  public static RpcException doNotRetry(String message) {
    return new RpcException(DO_NOT_RETRY, message, true, false);
  }

  /** A permanent failure under a subclass of HBase's DoNotRetryIOException. */
  public static RpcException doNotRetry(String className, String message) {
    return new RpcException(className, message, true, false);
  }

  /** A failure the client retries after its pause. */
  public static RpcException retriable(String className, String message) {
    return new RpcException(className, message, false, false);
  }

  public static RpcException tableNotFound(String table) {
    return doNotRetry(TABLE_NOT_FOUND, table);
  }

  public static RpcException notServingRegion(String region) {
    return retriable(NOT_SERVING_REGION, "Region " + region + " is not online on this server");
  }

  /**
   * A row outside the region a request named (HBase's WrongRegionException, which its client takes
   * for a stale location: it looks the region up again and retries).
   */
  public static RpcException wrongRegion(String message) {
    return retriable(WRONG_REGION, message);
  }

  /** The class name the client re-creates. */
  public String className() {
    return className;
  }

  public boolean doNotRetry() {
    return doNotRetry;
  }

  public boolean serverOverloaded() {
    return serverOverloaded;
  }
}
