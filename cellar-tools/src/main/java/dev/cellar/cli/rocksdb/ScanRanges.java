package dev.cellar.cli.rocksdb;

import java.util.SplittableRandom;

/**
 * The rows each scan of the scan scenario reads, the same for both stores. With {@code scanRows} 0,
 * every scan of a thread reads the thread's share of the table: the rows {@code [t x rows /
 * threads, (t + 1) x rows / threads)}, so the threads together read the whole table once per round.
 * Otherwise each scan reads {@code scanRows} rows (fewer at the table's end) from a uniform random
 * start row, drawn from a generator seeded by the run's seed and the thread.
 */
record ScanRanges(RowShape shape, long rows, int threads, long scanRows, long seed) {

  /** Thread {@code thread}'s scans. */
  Cursor cursor(int thread) {
    return new Cursor(this, thread);
  }

  /** One thread's scans, one at a time, with the keys in reused arrays. Not thread-safe. */
  static final class Cursor {
    private final ScanRanges ranges;
    private final SplittableRandom random;
    private final long shareStart;
    private final long shareEnd;
    private final byte[] startKey;
    private final byte[] stopKey;
    private long start;
    private long end;

    private Cursor(ScanRanges ranges, int thread) {
      this.ranges = ranges;
      this.random = new SplittableRandom(ranges.seed * 1_000_003 + thread);
      this.shareStart = ranges.rows * thread / ranges.threads;
      this.shareEnd = ranges.rows * (thread + 1) / ranges.threads;
      this.startKey = new byte[ranges.shape.keyLength()];
      this.stopKey = new byte[ranges.shape.keyLength()];
    }

    /** Moves to the next scan. */
    void next() {
      if (ranges.scanRows == 0) {
        start = shareStart;
        end = shareEnd;
      } else {
        start = random.nextLong(ranges.rows);
        end = Math.min(ranges.rows, start + ranges.scanRows);
      }
      ranges.shape.key(start, startKey);
      ranges.shape.key(end, stopKey);
    }

    /** The scan's first row's key (in an array the next scan reuses). */
    byte[] startKey() {
      return startKey;
    }

    /**
     * The key the scan stops before (in an array the next scan reuses), or null when the scan reads
     * to the table's end.
     */
    byte[] stopKey() {
      return end < ranges.rows ? stopKey : null;
    }

    /** The rows the scan reads. */
    long rows() {
      return end - start;
    }
  }
}
