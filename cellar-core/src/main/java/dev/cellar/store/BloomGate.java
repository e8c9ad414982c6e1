package dev.cellar.store;

/**
 * Decides, for one reader thread's point reads of one file, whether a read asks the file's bloom
 * filter first. A bloom filter pays when it rejects: a Get of a row the file lacks then skips the
 * file's index and data blocks. When nearly every row read is in the file (one file per store after
 * a major compaction, and Gets of rows that exist, as PE's and YCSB's), it never rejects and costs
 * every Get a bloom chunk from the cache and about seven scattered cache lines of it.
 *
 * <p><b>Rule.</b> Every read asks the bloom while it rejects at least {@value #MIN_REJECTIONS} of
 * the last {@value #WINDOW} reads that asked it. Below that, reads stop asking it, except one in
 * {@value #SAMPLE_EVERY}, whose answers keep measuring the rejection rate (and are used: a sampled
 * rejection still skips the file); a window whose samples reject often enough turns asking back on.
 * A read that skips the bloom for a row the file lacks costs a seek in the file's index and data
 * block, a few times a bloom lookup; below the threshold such reads are under 1 in 32, so the bloom
 * costs more than it saves. Skipping never changes a result: the bloom is only a filter. (RocksDB's
 * {@code optimize_filters_for_hits} makes the same trade statically, by not building filters for
 * its last level; this one follows the workload.)
 *
 * <p><b>Concurrency and memory.</b> Not thread-safe and not shared: each reader thread keeps one
 * per file it reads ({@link StorePointRead}), so its counters are plain fields in that thread's
 * cache lines. Three ints; nothing allocated per read.
 */
final class BloomGate {

  /** Reads that asked the bloom per verdict. */
  static final int WINDOW = 1024;

  /** The rejections per window below which reads stop asking. */
  static final int MIN_REJECTIONS = WINDOW / 32;

  /** While reads do not ask, one in this many still does. A power of two. */
  static final int SAMPLE_EVERY = 16;

  private int asked;
  private int rejected;
  private int unasked;
  private boolean skipping;

  /** Whether this read asks the bloom; if it does, it reports the answer to {@link #answered}. */
  boolean ask() {
    return !skipping || (++unasked & (SAMPLE_EVERY - 1)) == 0;
  }

  /** The bloom's answer to a read that asked: {@code mightContain} false is a rejection. */
  void answered(boolean mightContain) {
    if (!mightContain) {
      rejected++;
    }
    if (++asked == WINDOW) {
      skipping = rejected < MIN_REJECTIONS;
      asked = 0;
      rejected = 0;
    }
  }

  /** Whether reads have stopped asking (all but the samples). */
  boolean skipping() {
    return skipping;
  }
}
