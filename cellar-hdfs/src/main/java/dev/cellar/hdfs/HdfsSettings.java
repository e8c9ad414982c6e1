package dev.cellar.hdfs;

import dev.cellar.config.Settings;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The settings Cellar on HDFS reads, with HBase's names and defaults, and the Hadoop client
 * configuration built from the same site file and {@code -D} options. Immutable.
 *
 * @param verifyChecksums {@code hbase.regionserver.checksum.verify}: Cellar verifies HFile block
 *     checksums itself and reads with HDFS's verification off (true, the default), or leaves
 *     verification to HDFS as well
 * @param hsyncLog {@code hbase.wal.hsync}: a SYNC_WAL write waits for an hsync rather than an
 *     hflush
 * @param enforceCapabilities {@code hbase.unsafe.stream.capability.enforce}: refuse output streams
 *     that cannot hflush and hsync
 * @param leaseRecoveryTimeoutMillis {@code hbase.lease.recovery.timeout}: how long an open waits
 *     for a dead writer's file to be closed by lease recovery
 * @param leaseRecoveryPauseMillis {@code hbase.lease.recovery.pause}: the pause between checks
 * @param preadIntoBuffers {@code cellar.hdfs.pread.bytebuffer}: read into the destination's buffers
 *     where the stream can (true, the default); false reads through heap arrays always, the path a
 *     stream without {@code in:preadbytebuffer} takes, to compare the two
 */
record HdfsSettings(
    boolean verifyChecksums,
    boolean hsyncLog,
    boolean enforceCapabilities,
    long leaseRecoveryTimeoutMillis,
    long leaseRecoveryPauseMillis,
    boolean preadIntoBuffers) {

  static final String CHECKSUM_VERIFY = "hbase.regionserver.checksum.verify";
  static final String WAL_HSYNC = "hbase.wal.hsync";
  static final String ENFORCE_CAPABILITIES = "hbase.unsafe.stream.capability.enforce";
  static final String LEASE_RECOVERY_TIMEOUT = "hbase.lease.recovery.timeout";
  static final String LEASE_RECOVERY_PAUSE = "hbase.lease.recovery.pause";
  static final String PREAD_INTO_BUFFERS = "cellar.hdfs.pread.bytebuffer";

  /**
   * How often the client retries a NameNode connection unless configured: Hadoop's default (10, a
   * second apart) would keep an open against an unreachable NameNode waiting for long.
   */
  private static final String CONNECT_RETRIES = "ipc.client.connect.max.retries";

  static HdfsSettings from(Settings settings) {
    return new HdfsSettings(
        settings.getBoolean(CHECKSUM_VERIFY, true),
        settings.getBoolean(WAL_HSYNC, false),
        settings.getBoolean(ENFORCE_CAPABILITIES, true),
        settings.getLong(LEASE_RECOVERY_TIMEOUT, 900_000),
        settings.getLong(LEASE_RECOVERY_PAUSE, 1_000),
        settings.getBoolean(PREAD_INTO_BUFFERS, true));
  }

  /** Hadoop's defaults and site files from the class path, then every Cellar setting over them. */
  static Configuration hadoopConfiguration(Settings settings) {
    Configuration conf = new Configuration();
    conf.setInt(CONNECT_RETRIES, 2);
    for (Map.Entry<String, String> entry : settings.asMap().entrySet()) {
      conf.set(entry.getKey(), entry.getValue());
    }
    return conf;
  }
}
