package dev.cellar.store.wal;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;

/**
 * The settings of a write-ahead log, read from HBase's keys. Immutable and thread-safe.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #BLOCK_SIZE_KEY}</td><td>256 MiB</td><td>HBase's WAL block size (twice an
 *       HDFS block); with the multiplier it gives the roll size</td></tr>
 *   <tr><td>{@value #ROLL_MULTIPLIER_KEY}</td><td>0.5</td><td>a segment is rolled once it holds
 *       block size &times; multiplier bytes: 128 MiB by default</td></tr>
 *   <tr><td>{@value #ASYNC_SYNC_INTERVAL_KEY}</td><td>1000</td><td>milliseconds: the longest an
 *       {@link Durability#ASYNC_WAL} entry waits to be forced</td></tr>
 * </table>
 *
 * @param rollSize segment size in bytes from which the sync thread starts a new segment; a batch is
 *     never split, so a segment may exceed it by one batch
 * @param asyncSyncIntervalMillis the longest written but unforced entries wait for a force
 */
public record WalConfig(long rollSize, long asyncSyncIntervalMillis) {

  /** HBase's WAL block size key. */
  public static final String BLOCK_SIZE_KEY = "hbase.regionserver.hlog.blocksize";

  /** HBase's default WAL block size: twice HDFS's 128 MiB block. */
  public static final long DEFAULT_BLOCK_SIZE = 256L << 20;

  /** HBase's key for the fraction of a block at which a WAL rolls. */
  public static final String ROLL_MULTIPLIER_KEY = "hbase.regionserver.logroll.multiplier";

  /** HBase's default roll multiplier. */
  public static final double DEFAULT_ROLL_MULTIPLIER = 0.5;

  /** HBase's key for the sync interval of deferred (asynchronous) edits. */
  public static final String ASYNC_SYNC_INTERVAL_KEY =
      "hbase.regionserver.optionallogflushinterval";

  /** HBase's default sync interval of deferred edits, in milliseconds. */
  public static final long DEFAULT_ASYNC_SYNC_INTERVAL_MILLIS = 1000;

  /**
   * @throws IllegalArgumentException if the roll size or the interval is not positive
   */
  public WalConfig {
    if (rollSize <= 0) {
      throw new IllegalArgumentException("roll size must be > 0 bytes, was " + rollSize);
    }
    if (asyncSyncIntervalMillis <= 0) {
      throw new IllegalArgumentException(
          "async sync interval must be > 0 ms, was " + asyncSyncIntervalMillis);
    }
  }

  /** Returns HBase's defaults: roll at 128 MiB, force deferred entries every second. */
  public static WalConfig defaults() {
    return from(Settings.empty());
  }

  /**
   * Returns the configuration {@code settings} give, with HBase's defaults for missing keys.
   *
   * @throws InvalidConfigException naming the key, if a value is malformed or not positive
   */
  public static WalConfig from(Settings settings) {
    long blockSize = settings.getBytes(BLOCK_SIZE_KEY, DEFAULT_BLOCK_SIZE);
    if (blockSize <= 0) {
      throw new InvalidConfigException(
          BLOCK_SIZE_KEY, settings.get(BLOCK_SIZE_KEY), "expected a size > 0");
    }
    double multiplier = settings.getDouble(ROLL_MULTIPLIER_KEY, DEFAULT_ROLL_MULTIPLIER);
    long rollSize = (long) (blockSize * multiplier);
    if (rollSize <= 0) {
      throw new InvalidConfigException(
          ROLL_MULTIPLIER_KEY,
          settings.get(ROLL_MULTIPLIER_KEY),
          "expected a multiplier giving a roll size of at least 1 byte with block size "
              + blockSize);
    }
    long interval = settings.getLong(ASYNC_SYNC_INTERVAL_KEY, DEFAULT_ASYNC_SYNC_INTERVAL_MILLIS);
    if (interval <= 0) {
      throw new InvalidConfigException(
          ASYNC_SYNC_INTERVAL_KEY,
          settings.get(ASYNC_SYNC_INTERVAL_KEY),
          "expected milliseconds > 0");
    }
    return new WalConfig(rollSize, interval);
  }

  /** Returns this configuration with another roll size. */
  public WalConfig withRollSize(long newRollSize) {
    return new WalConfig(newRollSize, asyncSyncIntervalMillis);
  }

  /** Returns this configuration with another async sync interval. */
  public WalConfig withAsyncSyncIntervalMillis(long newIntervalMillis) {
    return new WalConfig(rollSize, newIntervalMillis);
  }
}
