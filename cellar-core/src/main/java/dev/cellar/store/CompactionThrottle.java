package dev.cellar.store;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Limits how fast background compactions write, so that they leave the disk and the cores to the
 * writes and reads they serve: HBase's pressure-aware compaction throughput control, with its keys
 * and defaults.
 *
 * <p><b>The limit.</b> Between {@value #LOWER_BOUND_KEY} (50 MiB/s) and {@value #HIGHER_BOUND_KEY}
 * (100 MiB/s), in proportion to the compacted store's pressure: {@code (files - min) / (blocking -
 * min)} with {@code min} the policy's {@code hbase.hstore.compaction.min} and {@code blocking}
 * {@value #BLOCKING_FILES_KEY} (16); 0 at or below the minimum. A pressure above 1 (a store past
 * its blocking count) lifts the limit. As in HBase, the limit starts at the lower bound and is
 * tuned again every {@value #TUNE_PERIOD_KEY} milliseconds (60 s); it is shared evenly by the
 * compactions running at once. HBase takes the highest pressure of the whole server; here each
 * compaction tunes by its own store's.
 *
 * <p><b>The control.</b> A compaction reports the bytes of every cell it writes; every {@value
 * #CHECK_INTERVAL_KEY} bytes (the lower bound) it sleeps as long as it went faster than its share
 * since the last check. {@value #CONTROLLER_KEY} naming HBase's {@code NoLimitThroughputController}
 * turns the limit off. Compactions a caller asks for and waits on ({@code Admin} compactions) are
 * not limited; HBase's synchronous store compaction is not either.
 *
 * <p><b>Concurrency.</b> Thread-safe: the shared state is the count of running compactions; an
 * {@link Operation} belongs to the one compaction thread that started it.
 */
public final class CompactionThrottle {

  public static final String HIGHER_BOUND_KEY = "hbase.hstore.compaction.throughput.higher.bound";
  public static final String LOWER_BOUND_KEY = "hbase.hstore.compaction.throughput.lower.bound";
  public static final String TUNE_PERIOD_KEY = "hbase.hstore.compaction.throughput.tune.period";
  public static final String CHECK_INTERVAL_KEY =
      "hbase.hstore.compaction.throughput.control.check.interval";
  public static final String BLOCKING_FILES_KEY = "hbase.hstore.blockingStoreFiles";
  public static final String CONTROLLER_KEY = "hbase.regionserver.throughput.controller";

  /** The {@value #CONTROLLER_KEY} values (current and deprecated names) that mean no limit. */
  private static final String[] NO_LIMIT_CONTROLLERS = {
    "org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController",
    "org.apache.hadoop.hbase.regionserver.compactions.NoLimitThroughputController"
  };

  /** A throttle that never sleeps. */
  public static final CompactionThrottle NONE =
      new CompactionThrottle(false, 0, 0, 0, Long.MAX_VALUE, 16, System::nanoTime);

  private final boolean enabled;
  private final long lowerBound;
  private final long higherBound;
  private final long tunePeriodNanos;
  private final long checkInterval;
  private final int blockingFiles;
  private final LongSupplier clock;
  private final AtomicInteger running = new AtomicInteger();

  CompactionThrottle(
      boolean enabled,
      long lowerBound,
      long higherBound,
      long tunePeriodMillis,
      long checkInterval,
      int blockingFiles,
      LongSupplier clock) {
    this.enabled = enabled;
    this.lowerBound = lowerBound;
    this.higherBound = higherBound;
    this.tunePeriodNanos = tunePeriodMillis * 1_000_000L;
    this.checkInterval = checkInterval;
    this.blockingFiles = blockingFiles;
    this.clock = clock;
  }

  /** Reads HBase's keys. */
  public static CompactionThrottle from(Settings settings) {
    long lower = settings.getBytes(LOWER_BOUND_KEY, 50L << 20);
    long higher = settings.getBytes(HIGHER_BOUND_KEY, 100L << 20);
    if (lower <= 0 || higher < lower) {
      throw new InvalidConfigException(
          LOWER_BOUND_KEY,
          lower + "/" + higher,
          "the bounds must be > 0 with the lower not above the higher (" + HIGHER_BOUND_KEY + ")");
    }
    long tune = settings.getLong(TUNE_PERIOD_KEY, 60_000);
    if (tune <= 0) {
      throw new InvalidConfigException(TUNE_PERIOD_KEY, Long.toString(tune), "must be > 0 ms");
    }
    long check = settings.getBytes(CHECK_INTERVAL_KEY, lower);
    if (check <= 0) {
      throw new InvalidConfigException(CHECK_INTERVAL_KEY, Long.toString(check), "must be > 0");
    }
    int blocking = settings.getInt(BLOCKING_FILES_KEY, 16);
    String controller = settings.getString(CONTROLLER_KEY, "");
    boolean enabled = true;
    for (String noLimit : NO_LIMIT_CONTROLLERS) {
      enabled &= !noLimit.equals(controller);
    }
    return new CompactionThrottle(enabled, lower, higher, tune, check, blocking, System::nanoTime);
  }

  /** The store files at which a store's pressure reaches 1. */
  public int blockingFiles() {
    return blockingFiles;
  }

  /**
   * HBase's compaction pressure of a store with {@code files} files, whose policy compacts from
   * {@code minFiles} files on.
   */
  double pressure(int files, int minFiles) {
    if (files <= minFiles) {
      return 0;
    }
    return (double) (files - minFiles) / Math.max(1, blockingFiles - minFiles);
  }

  /** The bytes per second the limit is at for {@code pressure}. */
  double limit(double pressure) {
    if (!enabled || pressure > 1.0) {
      return Double.POSITIVE_INFINITY;
    }
    return lowerBound + (higherBound - lowerBound) * pressure;
  }

  /**
   * Starts a compaction's control; {@code pressure} is read when the limit is tuned, and once
   * {@code unlimited} says so (its store is closing, and its close waits for the compaction) the
   * compaction runs at full speed.
   */
  public Operation start(DoubleSupplier pressure, BooleanSupplier unlimited) {
    running.incrementAndGet();
    return new Operation(pressure, unlimited);
  }

  /** One compaction's control. Not thread-safe. */
  public final class Operation implements AutoCloseable {

    private final DoubleSupplier pressure;
    private final BooleanSupplier unlimited;
    private long limit;
    private long tunedAt;
    private long uncheckedBytes;
    private long checkedAt;
    private long sleptNanos;
    private boolean finished;

    private Operation(DoubleSupplier pressure, BooleanSupplier unlimited) {
      this.pressure = pressure;
      this.unlimited = unlimited;
      long now = clock.getAsLong();
      this.limit = enabled ? lowerBound : Long.MAX_VALUE;
      this.tunedAt = now;
      this.checkedAt = now;
    }

    /**
     * Counts {@code bytes} written; at each check interval, sleeps as long as the writes since the
     * last check went faster than this compaction's share of the limit.
     *
     * @throws InterruptedException if interrupted while sleeping (the interrupt is kept)
     */
    public void wrote(long bytes) throws InterruptedException {
      if (!enabled) {
        return;
      }
      uncheckedBytes += bytes;
      if (uncheckedBytes < checkInterval) {
        return;
      }
      if (unlimited.getAsBoolean()) {
        uncheckedBytes = 0;
        return;
      }
      long now = clock.getAsLong();
      if (now - tunedAt >= tunePeriodNanos) {
        double tuned = limit(pressure.getAsDouble());
        limit = tuned >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) tuned;
        tunedAt = now;
      }
      double share = (double) limit / Math.max(1, running.get());
      long allowedNanos = (long) (uncheckedBytes / share * 1e9);
      long elapsed = now - checkedAt;
      uncheckedBytes = 0;
      if (elapsed < allowedNanos) {
        long sleep = allowedNanos - elapsed;
        Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        sleptNanos += sleep;
      }
      checkedAt = clock.getAsLong();
    }

    /** Nanoseconds this compaction slept so far. */
    public long sleptNanos() {
      return sleptNanos;
    }

    /** Ends the compaction's share of the limit. */
    @Override
    public void close() {
      if (!finished) {
        finished = true;
        running.decrementAndGet();
      }
    }
  }
}
