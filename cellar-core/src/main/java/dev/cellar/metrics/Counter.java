package dev.cellar.metrics;

/**
 * The running totals {@link EngineMetrics} keeps, under HBase's region server names (Cellar's
 * own in the same style where HBase has none).
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
  PAUSE_WARN_THRESHOLD("pauseWarnThresholdExceeded");

  private final String metricName;

  Counter(String metricName) {
    this.metricName = metricName;
  }

  public String metricName() {
    return metricName;
  }
}
