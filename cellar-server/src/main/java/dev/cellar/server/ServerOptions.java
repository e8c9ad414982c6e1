package dev.cellar.server;

import dev.cellar.CellarConfig;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import dev.cellar.server.service.ScanLimits;
import dev.cellar.spi.EngineAccess;
import java.nio.file.Path;

/**
 * How {@code cellar serve} runs, under HBase's keys where HBase has the setting:
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><th>key</th><th>default</th><th>what</th></tr>
 *   <tr><td>hbase.regionserver.port</td><td>16020</td><td>RPC port (0: any free port)</td></tr>
 *   <tr><td>hbase.regionserver.ipc.address</td><td>127.0.0.1</td><td>address to bind</td></tr>
 *   <tr><td>hbase.regionserver.hostname</td><td>the bind address (this host's name when
 *       binding every address)</td><td>host advertised to clients</td></tr>
 *   <tr><td>hbase.regionserver.handler.count</td><td>30</td><td>handler threads</td></tr>
 *   <tr><td>hbase.ipc.server.max.callqueue.length</td><td>10 per handler</td><td>calls waiting
 *       for a handler before CallQueueTooBigException</td></tr>
 *   <tr><td>hbase.ipc.max.request.size</td><td>268435456</td><td>largest request frame</td></tr>
 *   <tr><td>hbase.netty.eventloop.rpcserver.thread.count</td><td>number of cores</td><td>event
 *       loop threads</td></tr>
 *   <tr><td>hbase.client.scanner.timeout.period</td><td>60000</td><td>scanner lease (ms); a Scan
 *       call answers within half of it (a heartbeat when its filter found nothing)</td></tr>
 *   <tr><td>hbase.rpc.timeout</td><td>60000</td><td>a call's timeout when its header gives
 *       none</td></tr>
 *   <tr><td>hbase.server.scanner.max.result.size</td><td>104857600</td><td>cell bytes one Scan
 *       call returns at most</td></tr>
 *   <tr><td>hbase.region.server.rpc.minimum.scan.time.limit.delta</td><td>10</td><td>the least
 *       time (ms) a Scan call scans before a heartbeat</td></tr>
 *   <tr><td>cellar.server.scanner.heartbeats</td><td>true</td><td>false: Scan calls run to their
 *       row and size limits however long their filter skips rows</td></tr>
 *   <tr><td>cellar.server.gets.inline</td><td>true</td><td>gets run on the event loop that read
 *       them instead of a handler thread</td></tr>
 * </table>
 *
 * <p>ZooKeeper discovery has keys of its own: {@link ZooKeeperOptions}.
 */
public record ServerOptions(
    String location,
    String bindAddress,
    int port,
    String advertisedHost,
    int handlers,
    int callQueueLength,
    int maxRequestSize,
    int ioThreads,
    long scannerLeaseMillis,
    long rpcTimeoutMillis,
    long scannerMaxResultSize,
    long minimumScanTimeLimitMillis,
    boolean scannerHeartbeats,
    boolean inlineGets,
    ZooKeeperOptions zooKeeper) {

  public static final String PORT = "hbase.regionserver.port";
  public static final String BIND_ADDRESS = "hbase.regionserver.ipc.address";
  public static final String HOSTNAME = "hbase.regionserver.hostname";
  public static final String HANDLERS = "hbase.regionserver.handler.count";
  public static final String CALL_QUEUE_LENGTH = "hbase.ipc.server.max.callqueue.length";
  public static final String MAX_REQUEST_SIZE = "hbase.ipc.max.request.size";
  public static final String IO_THREADS = "hbase.netty.eventloop.rpcserver.thread.count";
  public static final String SCANNER_TIMEOUT = "hbase.client.scanner.timeout.period";
  public static final String RPC_TIMEOUT = "hbase.rpc.timeout";
  public static final String SCANNER_MAX_RESULT_SIZE = "hbase.server.scanner.max.result.size";
  public static final String MINIMUM_SCAN_TIME_LIMIT =
      "hbase.region.server.rpc.minimum.scan.time.limit.delta";
  public static final String SCANNER_HEARTBEATS = "cellar.server.scanner.heartbeats";
  public static final String INLINE_GETS = "cellar.server.gets.inline";
  public static final int DEFAULT_PORT = 16020;
  public static final String LOOPBACK = "127.0.0.1";

  /** The options for the local {@code directory} from {@code config}, validated. */
  public static ServerOptions from(Path directory, CellarConfig config) {
    return from(directory.toString(), config);
  }

  /**
   * The options for the database at {@code location} (a local path or a URI such as {@code
   * hdfs://host:8020/path}) from {@code config}, validated.
   */
  public static ServerOptions from(String location, CellarConfig config) {
    Settings settings = EngineAccess.settings(config);
    int port = settings.getInt(PORT, DEFAULT_PORT);
    require(port >= 0 && port <= 65535, PORT, port, "a port between 0 and 65535");
    String bind = settings.getString(BIND_ADDRESS, LOOPBACK);
    String advertised = settings.getString(HOSTNAME, null);
    if (advertised == null) {
      advertised = bind.equals("0.0.0.0") || bind.equals("::") ? localHostName() : bind;
    }
    int handlers = settings.getInt(HANDLERS, 30);
    require(handlers >= 1, HANDLERS, handlers, ">= 1");
    int queue = settings.getInt(CALL_QUEUE_LENGTH, handlers * 10);
    require(queue >= 1, CALL_QUEUE_LENGTH, queue, ">= 1");
    long maxRequest = settings.getBytes(MAX_REQUEST_SIZE, 256L * 1024 * 1024);
    require(
        maxRequest >= 1024 && maxRequest <= Integer.MAX_VALUE,
        MAX_REQUEST_SIZE,
        maxRequest,
        "between 1024 and 2147483647 bytes");
    int io = settings.getInt(IO_THREADS, 0);
    require(io >= 0, IO_THREADS, io, ">= 0 (0: one per core)");
    int ioThreads = io == 0 ? Runtime.getRuntime().availableProcessors() : io;
    long lease = settings.getLong(SCANNER_TIMEOUT, ScanLimits.DEFAULT_LEASE_MILLIS);
    require(lease >= 1, SCANNER_TIMEOUT, lease, ">= 1 ms");
    long rpcTimeout = settings.getLong(RPC_TIMEOUT, ScanLimits.DEFAULT_RPC_TIMEOUT_MILLIS);
    require(rpcTimeout >= 1, RPC_TIMEOUT, rpcTimeout, ">= 1 ms");
    long maxResultSize =
        settings.getBytes(SCANNER_MAX_RESULT_SIZE, ScanLimits.DEFAULT_MAX_RESULT_SIZE);
    require(maxResultSize >= 1, SCANNER_MAX_RESULT_SIZE, maxResultSize, ">= 1 byte");
    long minimum =
        settings.getLong(MINIMUM_SCAN_TIME_LIMIT, ScanLimits.DEFAULT_MINIMUM_TIME_LIMIT_MILLIS);
    require(minimum >= 1, MINIMUM_SCAN_TIME_LIMIT, minimum, ">= 1 ms");
    return new ServerOptions(
        location,
        bind,
        port,
        advertised,
        handlers,
        queue,
        (int) maxRequest,
        ioThreads,
        lease,
        rpcTimeout,
        maxResultSize,
        minimum,
        settings.getBoolean(SCANNER_HEARTBEATS, true),
        settings.getBoolean(INLINE_GETS, true),
        ZooKeeperOptions.from(settings));
  }

  /** How long and how much one Scan call may read, as these options set it. */
  ScanLimits scanLimits() {
    return new ScanLimits(
        scannerLeaseMillis,
        rpcTimeoutMillis,
        scannerMaxResultSize,
        minimumScanTimeLimitMillis,
        scannerHeartbeats);
  }

  private static void require(boolean ok, String key, Object value, String expected) {
    if (!ok) {
      throw new InvalidConfigException(key, String.valueOf(value), "must be " + expected);
    }
  }

  private static String localHostName() {
    try {
      return java.net.InetAddress.getLocalHost().getCanonicalHostName();
    } catch (java.net.UnknownHostException e) {
      return LOOPBACK;
    }
  }

  /** These options with another port (the command line's {@code --port}). */
  public ServerOptions withPort(int newPort) {
    return new ServerOptions(
        location,
        bindAddress,
        newPort,
        advertisedHost,
        handlers,
        callQueueLength,
        maxRequestSize,
        ioThreads,
        scannerLeaseMillis,
        rpcTimeoutMillis,
        scannerMaxResultSize,
        minimumScanTimeLimitMillis,
        scannerHeartbeats,
        inlineGets,
        zooKeeper);
  }
}
