package dev.cellar.store;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.List;

/**
 * Chooses the files of a minor compaction by size ratio, as HBase's RatioBasedCompactionPolicy:
 * with the store's files ordered oldest first, the oldest files are passed over while a file is
 * larger than {@code ratio} times the total of the (up to {@code max} − 1) newer files after it and
 * also larger than the minimum compact size; from the first file that is not, up to {@code max}
 * files are compacted if there are at least {@code min}. Large old files thus stay put until enough
 * newer data accumulates, and each byte is rewritten a logarithmic number of times.
 *
 * <p>Keys (HBase's): {@code hbase.hstore.compaction.min} (3), {@code hbase.hstore.compaction.max}
 * (10), {@code hbase.hstore.compaction.ratio} (1.2), {@code hbase.hstore.compaction.min.size} (the
 * flush size, 128 MiB), {@code hbase.hstore.compaction.max.size} (no limit; the oldest files above
 * it are never minor-compacted). Immutable.
 */
public record CompactionPolicy(
    int minFiles, int maxFiles, double ratio, long minCompactSize, long maxCompactSize) {

  public static final String MIN_KEY = "hbase.hstore.compaction.min";
  public static final String MAX_KEY = "hbase.hstore.compaction.max";
  public static final String RATIO_KEY = "hbase.hstore.compaction.ratio";
  public static final String MIN_SIZE_KEY = "hbase.hstore.compaction.min.size";
  public static final String MAX_SIZE_KEY = "hbase.hstore.compaction.max.size";

  public CompactionPolicy {
    if (minFiles < 2) {
      throw new InvalidConfigException(MIN_KEY, String.valueOf(minFiles), "must be >= 2");
    }
    if (maxFiles < minFiles) {
      throw new InvalidConfigException(
          MAX_KEY, String.valueOf(maxFiles), "must be >= " + MIN_KEY + " (" + minFiles + ")");
    }
    if (!(ratio > 0)) {
      throw new InvalidConfigException(RATIO_KEY, String.valueOf(ratio), "must be > 0");
    }
    if (minCompactSize < 0 || maxCompactSize <= 0) {
      throw new InvalidConfigException(
          MIN_SIZE_KEY,
          minCompactSize + "/" + maxCompactSize,
          "sizes must be >= 0 and the maximum > 0");
    }
  }

  /** Reads the keys; the minimum compact size defaults to {@code flushSize}. */
  public static CompactionPolicy from(Settings settings, long flushSize) {
    return new CompactionPolicy(
        settings.getInt(MIN_KEY, 3),
        settings.getInt(MAX_KEY, 10),
        settings.getDouble(RATIO_KEY, 1.2),
        settings.getBytes(MIN_SIZE_KEY, flushSize),
        settings.getBytes(MAX_SIZE_KEY, Long.MAX_VALUE));
  }

  /** The indexes [from, to) into {@code sizes} (oldest file first) to compact, or null for none. */
  int[] select(List<Long> sizes) {
    int count = sizes.size();
    int start = 0;
    while (start < count && sizes.get(start) > maxCompactSize) {
      start++;
    }
    while (count - start >= minFiles) {
      long newer = 0;
      for (int i = start + 1; i < Math.min(count, start + maxFiles); i++) {
        newer += sizes.get(i);
      }
      if (sizes.get(start) <= Math.max(minCompactSize, (long) (newer * ratio))) {
        break;
      }
      start++;
    }
    if (count - start < minFiles) {
      return null;
    }
    return new int[] {start, Math.min(count, start + maxFiles)};
  }
}
