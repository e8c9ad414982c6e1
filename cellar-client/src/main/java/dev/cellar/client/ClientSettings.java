package dev.cellar.client;

import dev.cellar.CellarConfig;
import dev.cellar.config.Settings;
import dev.cellar.spi.EngineAccess;

/**
 * How the client talks to the server: timeouts, retries, scanner and write buffer sizes, under
 * HBase's client keys and defaults (those of {@code hbase-site.xml} apply unchanged).
 *
 * @param rpcTimeoutMillis {@code hbase.rpc.timeout}: one call's wait for its answer
 * @param operationTimeoutMillis {@code hbase.client.operation.timeout}: an operation's whole time,
 *     retries included
 * @param retries {@code hbase.client.retries.number}: attempts after the first
 * @param pauseMillis {@code hbase.client.pause}: the base of the wait between attempts, multiplied
 *     by HBase's backoff table
 * @param scannerCaching {@code hbase.client.scanner.caching}: rows asked for per scanner call (a
 *     scan's own caching wins)
 * @param scannerMaxResultSize {@code hbase.client.scanner.max.result.size}: bytes per scanner call
 * @param writeBufferSize {@code hbase.client.write.buffer}: a BufferedMutator sends its mutations
 *     once they hold this many bytes
 * @param connectTimeoutMillis {@code hbase.ipc.client.socket.timeout.connect}
 * @param ioThreads {@code cellar.client.io.threads}: Netty event loops
 */
public record ClientSettings(
    long rpcTimeoutMillis,
    long operationTimeoutMillis,
    int retries,
    long pauseMillis,
    int scannerCaching,
    long scannerMaxResultSize,
    long writeBufferSize,
    int connectTimeoutMillis,
    int ioThreads) {

  public ClientSettings {
    require(rpcTimeoutMillis > 0, "hbase.rpc.timeout", rpcTimeoutMillis);
    require(operationTimeoutMillis > 0, "hbase.client.operation.timeout", operationTimeoutMillis);
    require(retries >= 0, "hbase.client.retries.number", retries);
    require(pauseMillis >= 0, "hbase.client.pause", pauseMillis);
    require(scannerCaching > 0, "hbase.client.scanner.caching", scannerCaching);
    require(scannerMaxResultSize > 0, "hbase.client.scanner.max.result.size", scannerMaxResultSize);
    require(writeBufferSize > 0, "hbase.client.write.buffer", writeBufferSize);
    require(
        connectTimeoutMillis > 0, "hbase.ipc.client.socket.timeout.connect", connectTimeoutMillis);
    require(ioThreads > 0, "cellar.client.io.threads", ioThreads);
  }

  private static void require(boolean valid, String key, long value) {
    if (!valid) {
      throw new IllegalArgumentException(key + " = " + value + " is out of range");
    }
  }

  /** HBase's defaults (scanner caching 100 rows, within 2 MiB per call). */
  public static ClientSettings defaults() {
    return from(CellarConfig.defaults());
  }

  /** The settings under HBase's keys in {@code config}, HBase's defaults for the others. */
  public static ClientSettings from(CellarConfig config) {
    Settings settings = EngineAccess.settings(config);
    return new ClientSettings(
        settings.getLong("hbase.rpc.timeout", 60_000),
        settings.getLong("hbase.client.operation.timeout", 1_200_000),
        settings.getInt("hbase.client.retries.number", 15),
        settings.getLong("hbase.client.pause", 100),
        settings.getInt("hbase.client.scanner.caching", 100),
        settings.getBytes("hbase.client.scanner.max.result.size", 2L << 20),
        settings.getBytes("hbase.client.write.buffer", 2L << 20),
        settings.getInt("hbase.ipc.client.socket.timeout.connect", 10_000),
        settings.getInt("cellar.client.io.threads", 2));
  }

  public ClientSettings withRpcTimeoutMillis(long millis) {
    return new ClientSettings(
        millis,
        operationTimeoutMillis,
        retries,
        pauseMillis,
        scannerCaching,
        scannerMaxResultSize,
        writeBufferSize,
        connectTimeoutMillis,
        ioThreads);
  }

  public ClientSettings withRetries(int count, long pause) {
    return new ClientSettings(
        rpcTimeoutMillis,
        operationTimeoutMillis,
        count,
        pause,
        scannerCaching,
        scannerMaxResultSize,
        writeBufferSize,
        connectTimeoutMillis,
        ioThreads);
  }

  public ClientSettings withScannerCaching(int rows) {
    return new ClientSettings(
        rpcTimeoutMillis,
        operationTimeoutMillis,
        retries,
        pauseMillis,
        rows,
        scannerMaxResultSize,
        writeBufferSize,
        connectTimeoutMillis,
        ioThreads);
  }

  public ClientSettings withWriteBufferSize(long bytes) {
    return new ClientSettings(
        rpcTimeoutMillis,
        operationTimeoutMillis,
        retries,
        pauseMillis,
        scannerCaching,
        scannerMaxResultSize,
        bytes,
        connectTimeoutMillis,
        ioThreads);
  }
}
