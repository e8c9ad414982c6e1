package dev.cellar.metrics;

/**
 * The operations whose durations {@link EngineMetrics} records, each with the name of HBase's
 * region server histogram for it (published as {@code <name>_num_ops}, {@code
 * <name>_99th_percentile} and so on); those HBase does not have carry Cellar's own names in the
 * same style.
 */
public enum Operation {
  /** One row read by a Get (alone or in a batch). */
  GET("Get", true),
  /** A batch of Gets through {@code Table.get(List)}; Cellar's own. */
  MULTI_GET("MultiGet", false),
  /** A write of one row that puts cells. */
  PUT("Put", false),
  /** A write of one row that only deletes. */
  DELETE("Delete", false),
  /** A write of several rows at once. */
  PUT_BATCH("PutBatch", false),
  CHECK_AND_MUTATE("CheckAndMutate", false),
  /** One row of a scan (HBase's ScanTime times a scan RPC, which returns many rows). */
  SCAN_NEXT("ScanNext", true),
  /** One Scan RPC of a server, however many rows it returns (HBase's ScanTime). */
  SCAN_TIME("ScanTime", false),
  /** The bytes of the cells one Scan RPC returns (HBase's ScanSize): a size, not a duration. */
  SCAN_SIZE("ScanSize", false),
  /** A table's flush of its MemStores to files. */
  FLUSH("FlushTime", false),
  /** A minor compaction of one family. */
  COMPACTION("CompactionTime", false),
  /** A major compaction of one family. */
  MAJOR_COMPACTION("MajorCompactionTime", false),
  /** A stop-the-world garbage collection pause (HBase's PauseTimeWithGc). */
  GC_PAUSE("PauseTimeWithGc", false);

  private final String metricName;
  private final boolean sampled;

  Operation(String metricName, boolean sampled) {
    this.metricName = metricName;
    this.sampled = sampled;
  }

  /** Whether the histogram holds sizes in bytes rather than durations in nanoseconds. */
  public boolean measuresBytes() {
    return this == SCAN_SIZE;
  }

  /**
   * Whether only a sample of the calls is timed (see {@link EngineMetrics}): the hot read path's
   * operations, whose duration is close to the cost of reading the clock.
   */
  public boolean sampled() {
    return sampled;
  }

  /** The histogram's name, as HBase capitalizes it. */
  public String metricName() {
    return metricName;
  }
}
