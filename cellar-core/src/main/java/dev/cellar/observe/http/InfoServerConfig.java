package dev.cellar.observe.http;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;

/**
 * Where the info server listens, under HBase's region server keys:
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><th>key</th><th>default</th><th>what</th></tr>
 *   <tr><td>hbase.regionserver.info.port</td><td>16030 for {@code cellar serve}; unset (off)
 *       for an embedded database</td><td>HTTP port; -1 turns the server off, 0 takes any free
 *       port</td></tr>
 *   <tr><td>hbase.regionserver.info.bindAddress</td><td>127.0.0.1</td><td>address to bind
 *       (0.0.0.0 for every interface)</td></tr>
 *   <tr><td>cellar.info.sample.interval.ms</td><td>5000</td><td>how often the UI's charts take a
 *       sample; 120 are kept (10 minutes at the default)</td></tr>
 * </table>
 *
 * @param port the port to bind, or -1 for no server
 */
public record InfoServerConfig(int port, String bindAddress, long sampleIntervalMillis) {

  public static final String PORT_KEY = "hbase.regionserver.info.port";
  public static final String BIND_KEY = "hbase.regionserver.info.bindAddress";
  public static final String SAMPLE_INTERVAL_KEY = "cellar.info.sample.interval.ms";

  /** HBase's region server info port. */
  public static final int DEFAULT_PORT = 16030;

  public static final int OFF = -1;
  static final int SAMPLES_KEPT = 120;

  /**
   * The configuration from {@code settings}, with {@code defaultPort} when the port key is unset
   * ({@link #OFF} for an embedded database, {@link #DEFAULT_PORT} for a server).
   *
   * @throws InvalidConfigException naming the key of a value out of range
   */
  public static InfoServerConfig from(Settings settings, int defaultPort) {
    int port = settings.getInt(PORT_KEY, defaultPort);
    if (port < -1 || port > 65535) {
      throw new InvalidConfigException(
          PORT_KEY,
          String.valueOf(port),
          "must be -1 (off), 0 (any free port) or a port up to 65535");
    }
    long interval = settings.getLong(SAMPLE_INTERVAL_KEY, 5_000);
    if (interval < 10) {
      throw new InvalidConfigException(
          SAMPLE_INTERVAL_KEY, String.valueOf(interval), "must be at least 10 ms");
    }
    return new InfoServerConfig(port, settings.getString(BIND_KEY, "127.0.0.1"), interval);
  }

  public boolean enabled() {
    return port != OFF;
  }
}
