package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.metrics.Counter;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.spi.EngineAccess;
import java.net.InetSocketAddress;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;

/**
 * HBase's {@code ServerLoad} of this server, what a region server reports of itself to its master
 * and the master hands out as a live server's load in {@code GetClusterStatus}. HBase's region
 * server sends one every few seconds; this server makes one when asked, and each one is a report:
 * it covers the time since the previous one (since the server started, for the first).
 *
 * <table>
 *   <caption>ServerLoad fields filled, and from what</caption>
 *   <tr><th>field (number)</th><th>unit</th><th>figure</th></tr>
 *   <tr><td>number_of_requests (1)</td><td>per second</td><td>requests answered between the
 *       previous report and this one, over the seconds between them (HBase's region server sends
 *       its requests per second here)</td></tr>
 *   <tr><td>total_number_of_requests (2)</td><td>count</td><td>every ClientService call
 *       answered since the start (the {@code totalRequestCount} the server publishes)</td></tr>
 *   <tr><td>used_heap_MB (3), max_heap_MB (4)</td><td>MB, rounded down</td><td>the JVM's heap
 *       in use and its maximum</td></tr>
 *   <tr><td>region_loads (5)</td><td></td><td>{@link RegionLoads}</td></tr>
 *   <tr><td>report_start_time (7), report_end_time (8)</td><td>ms since the epoch</td><td>the
 *       previous report's time (or the server's start), and now</td></tr>
 *   <tr><td>info_server_port (9)</td><td>port</td><td>the info server's, -1 when there is
 *       none, as HBase reports it</td></tr>
 * </table>
 *
 * Left out: coprocessors (6; Cellar runs none), replication (10, 11), user loads (12), the cache's
 * region figures (13), tasks (15).
 *
 * <p>Thread-safe: reports are made one at a time, as each moves the report window on.
 */
final class ServerLoads {

  private final Cellar cellar;
  private final EngineMetrics metrics;
  private final RegionLoads regions;
  private final LongSupplier clock;
  private long lastReportMillis;
  private long lastRequests;

  /**
   * @param startMillis when the server started: the first report covers the time from it
   * @param clock the time now, in milliseconds since the epoch
   */
  ServerLoads(Cellar cellar, RegionLoads regions, long startMillis, LongSupplier clock) {
    this.cellar = cellar;
    this.metrics = EngineAccess.engine(cellar).metrics();
    this.regions = regions;
    this.clock = clock;
    this.lastReportMillis = startMillis;
  }

  /** The server's load now, a report covering the time since the previous one. */
  synchronized ServerLoad report() {
    long now = clock.getAsLong();
    long requests = metrics.count(Counter.RPC_REQUESTS);
    long elapsed = Math.max(1, now - lastReportMillis);
    long perSecond = Math.max(0, requests - lastRequests) * 1000 / elapsed;
    Runtime runtime = Runtime.getRuntime();
    long usedHeap = runtime.totalMemory() - runtime.freeMemory();
    ServerLoad load =
        ServerLoad.newBuilder()
            .setNumberOfRequests(perSecond)
            .setTotalNumberOfRequests(requests)
            .setUsedHeapMB(megabytes(usedHeap))
            .setMaxHeapMB(megabytes(runtime.maxMemory()))
            .addAllRegionLoads(regions.all())
            .setReportStartTime(lastReportMillis)
            .setReportEndTime(now)
            .setInfoServerPort(
                cellar.infoServerAddress().map(InetSocketAddress::getPort).orElse(-1))
            .build();
    lastReportMillis = now;
    lastRequests = requests;
    return load;
  }

  /** {@code bytes} in whole MB, capped (a JVM without a heap limit reports Long.MAX_VALUE). */
  private static int megabytes(long bytes) {
    return (int) Math.min(bytes / RegionLoads.MB, Integer.MAX_VALUE);
  }
}
