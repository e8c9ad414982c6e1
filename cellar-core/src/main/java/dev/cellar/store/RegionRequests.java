package dev.cellar.store;

import java.util.concurrent.atomic.LongAdder;

/**
 * One region's own request counts, HBase's per-region {@code readRequestsCount} and {@code
 * writeRequestsCount}: rows read (by Gets and by scans, one per row returned) and rows written,
 * counted where the database's {@code readRequestCount} and {@code writeRequestCount} are and, like
 * them, not at all when the database's metrics are off. A {@link LongAdder} each, so that
 * concurrent readers and writers of one table do not contend on a counter. Thread-safe.
 */
final class RegionRequests {

  private final boolean enabled;
  private final LongAdder reads = new LongAdder();
  private final LongAdder writes = new LongAdder();

  RegionRequests(boolean enabled) {
    this.enabled = enabled;
  }

  void read() {
    if (enabled) {
      reads.increment();
    }
  }

  void wrote(long rows) {
    if (enabled) {
      writes.add(rows);
    }
  }

  long reads() {
    return reads.sum();
  }

  long writes() {
    return writes.sum();
  }
}
