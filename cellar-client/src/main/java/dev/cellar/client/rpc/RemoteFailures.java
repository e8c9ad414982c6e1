package dev.cellar.client.rpc;

import java.util.Set;

/**
 * HBase's exception classes as its client classifies them: those it never retries (the
 * DoNotRetryIOException family, scanner and table errors), those that make it look the region up
 * again (NotServingRegionException and its kin), and those that close the connection
 * (FatalConnectionException and its client-side subclasses). Stateless.
 */
final class RemoteFailures {

  private static final String HBASE = "org.apache.hadoop.hbase.";

  private static final Set<String> DO_NOT_RETRY =
      Set.of(
          HBASE + "DoNotRetryIOException",
          HBASE + "TableNotFoundException",
          HBASE + "TableExistsException",
          HBASE + "TableNotEnabledException",
          HBASE + "TableNotDisabledException",
          HBASE + "NamespaceNotFoundException",
          HBASE + "UnknownScannerException",
          HBASE + "exceptions.OutOfOrderScannerNextException",
          HBASE + "exceptions.ScannerResetException",
          HBASE + "regionserver.LeaseException",
          HBASE + "regionserver.NoSuchColumnFamilyException",
          HBASE + "exceptions.RequestTooBigException",
          HBASE + "ipc.UnsupportedCellCodecException",
          HBASE + "ipc.UnsupportedCompressionCodecException",
          HBASE + "ipc.FatalConnectionException");

  private static final Set<String> RELOCATE =
      Set.of(
          HBASE + "NotServingRegionException",
          HBASE + "exceptions.RegionMovedException",
          HBASE + "exceptions.RegionOpeningException");

  private RemoteFailures() {}

  static boolean isDoNotRetry(String className) {
    return DO_NOT_RETRY.contains(className);
  }

  /** Whether the failure means the region's location is stale and must be looked up again. */
  static boolean isRelocation(String className) {
    return RELOCATE.contains(className);
  }

  static boolean isFatalConnection(String className) {
    return className.startsWith(HBASE + "ipc.")
        && (className.endsWith("FatalConnectionException")
            || className.endsWith("UnsupportedCellCodecException")
            || className.endsWith("UnsupportedCompressionCodecException"));
  }
}
