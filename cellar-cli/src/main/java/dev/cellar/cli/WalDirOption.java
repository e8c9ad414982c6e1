package dev.cellar.cli;

import dev.cellar.CellarConfig;
import picocli.CommandLine.Option;

/**
 * {@code --wal-dir DIR}, shared by every command that opens a database: HBase's {@value
 * CellarConfig#WAL_DIR}, the log in {@code DIR/wal} instead of the database directory. Overrides
 * the site file and {@code -D}.
 */
public final class WalDirOption {

  @Option(names = "--wal-dir", paramLabel = "DIR", description = "keep the write-ahead log in"
      + " DIR/wal (hbase.wal.dir): a path or a URI such as hdfs://host:8020/logs, outside the"
      + " database directory; give the same one at every open")
  String walDir;

  /** {@code config} with {@value CellarConfig#WAL_DIR} set when {@code --wal-dir} was given. */
  public CellarConfig applyTo(CellarConfig config) {
    return walDir == null ? config : config.with(CellarConfig.WAL_DIR, walDir);
  }
}
