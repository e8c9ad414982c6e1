package dev.cellar.metrics;

/**
 * The operations whose durations {@link EngineMetrics} records, each with the name of HBase's
 * region server histogram for it (published as {@code <name>_num_ops}, {@code <name>_99th_percentile}
 * and so on); those HBase does not have carry Cellar's own names in the same style.
 */
public enum Operation {
  /** One row read by a Get (alone or in a batch). */
  GET("Get"),
  /** A batch of Gets through {@code Table.get(List)}; Cellar's own. */
  MULTI_GET("MultiGet"),
  /** A write of one row that puts cells. */
  PUT("Put"),
  /** A write of one row that only deletes. */
  DELETE("Delete"),
  /** A write of several rows at once. */
  PUT_BATCH("PutBatch"),
  CHECK_AND_MUTATE("CheckAndMutate"),
  /** One row of a scan (HBase's ScanTime times a scan RPC, which returns many rows). */
  SCAN_NEXT("ScanNext"),
  /** A table's flush of its MemStores to files. */
  FLUSH("FlushTime"),
  /** A minor compaction of one family. */
  COMPACTION("CompactionTime"),
  /** A major compaction of one family. */
  MAJOR_COMPACTION("MajorCompactionTime"),
  /** A stop-the-world garbage collection pause (HBase's PauseTimeWithGc). */
  GC_PAUSE("PauseTimeWithGc");

  private final String metricName;

  Operation(String metricName) {
    this.metricName = metricName;
  }

  /** The histogram's name, as HBase capitalizes it. */
  public String metricName() {
    return metricName;
  }
}
