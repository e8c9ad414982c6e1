package dev.cellar.observe;

import dev.cellar.metrics.HistogramSnapshot;
import dev.cellar.store.wal.WalStats;
import dev.cellar.store.wal.WriteAheadLog;
import java.util.ArrayList;
import java.util.List;

/**
 * HBase's {@code Hadoop:service=HBase,name=RegionServer,sub=WAL}: entries appended ({@code
 * appendCount}), bytes written ({@code writtenBytes}), rolls ({@code successfulLogRolls}) and the
 * time of each force to stable storage ({@code SyncTime}); Cellar's own {@code syncCount} and
 * {@code entriesPerSync} show how well group commit batches concurrent writers.
 */
final class WalSource implements MetricSource {

  private final WriteAheadLog wal;

  WalSource(WriteAheadLog wal) {
    this.wal = wal;
  }

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=RegionServer,sub=WAL";
  }

  @Override
  public String recordName() {
    return "WAL";
  }

  @Override
  public String context() {
    return "regionserver";
  }

  @Override
  public String description() {
    return "Metrics about the Cellar write-ahead log, under HBase's WAL names";
  }

  @Override
  public List<Metric> read() {
    WalStats stats = wal.stats();
    List<Metric> out = new ArrayList<>();
    out.add(
        Metric.counter(
            "appendCount", "Number of appends to the write ahead log.", stats.entriesWritten()));
    out.add(
        Metric.counter(
            "writtenBytes",
            "Size (in bytes) of the data written to the WAL.",
            stats.bytesWritten()));
    out.add(Metric.counter("successfulLogRolls", "Number of successful log rolls", stats.rolls()));
    out.add(Metric.counter("syncCount", "Forces of the log to stable storage", stats.forces()));
    out.add(Metric.counter("batchCount", "Batches the sync thread wrote", stats.batches()));
    out.add(
        Metric.gauge("entriesPerSync", "Entries made durable per force", stats.entriesPerForce()));
    HistogramSnapshot forces = wal.forceTimes();
    Histograms.add(out, "SyncTime", "The time it took to sync the WAL", forces.count(), forces);
    return out;
  }
}
