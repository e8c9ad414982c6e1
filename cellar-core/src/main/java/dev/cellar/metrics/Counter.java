package dev.cellar.metrics;

/**
 * The running totals {@link EngineMetrics} keeps, under HBase's region server names (Cellar's own
 * in the same style where HBase has none).
 */
public enum Counter {
  /** Rows read by Gets and scans. */
  READ_REQUESTS("readRequestCount"),
  /** Rows written. */
  WRITE_REQUESTS("writeRequestCount"),
  CHECK_MUTATE_PASSED("checkMutatePassedCount"),
  CHECK_MUTATE_FAILED("checkMutateFailedCount"),
  /** MemStore bytes written out by flushes. */
  FLUSHED_MEMSTORE_BYTES("flushedMemstoreBytes"),
  /** Bytes of the files flushes wrote. */
  FLUSHED_OUTPUT_BYTES("flushedOutputBytes"),
  /** Collections whose pause exceeded HBase's info threshold (1 s). */
  PAUSE_INFO_THRESHOLD("pauseInfoThresholdExceeded"),
  /** Collections whose pause exceeded HBase's warn threshold (10 s). */
  PAUSE_WARN_THRESHOLD("pauseWarnThresholdExceeded"),
  /** Requests a server answered, of every kind (one per RPC, however many rows it touched). */
  RPC_REQUESTS("totalRequestCount"),
  /** Get RPCs a server answered. */
  RPC_GET_REQUESTS("rpcGetRequestCount"),
  /** Scan RPCs a server answered (each opening, next and close of a scanner). */
  RPC_SCAN_REQUESTS("rpcScanRequestCount"),
  /** Multi RPCs a server answered. */
  RPC_MULTI_REQUESTS("rpcMultiRequestCount"),
  /** Mutate RPCs a server answered. */
  RPC_MUTATE_REQUESTS("rpcMutateRequestCount");

  private final String metricName;

  Counter(String metricName) {
    this.metricName = metricName;
  }

  public String metricName() {
    return metricName;
  }
}
