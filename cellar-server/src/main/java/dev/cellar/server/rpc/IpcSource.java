package dev.cellar.server.rpc;

import dev.cellar.metrics.HistogramSnapshot;
import dev.cellar.observe.Histograms;
import dev.cellar.observe.Metric;
import dev.cellar.observe.MetricSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.IntSupplier;

/**
 * HBase's {@code Hadoop:service=HBase,name=RegionServer,sub=IPC} (its MetricsHBaseServerSource) for
 * the RPC server: {@code queueSize} (bytes of the calls accepted and not yet answered), {@code
 * numCallsInGeneralQueue} (calls waiting for a handler: Cellar has the one queue), {@code
 * numActiveHandler} and {@code numActiveGeneralHandler} (handlers running a call), {@code
 * numOpenConnections}, {@code sentBytes}, {@code receivedBytes}, {@code authenticationSuccesses}
 * (0: the server speaks SIMPLE only, which HBase does not count) and {@code authenticationFailures}
 * (connections asking another method), the histograms {@code queueCallTime}, {@code
 * processCallTime}, {@code totalCallTime} (ms) and {@code requestSize}, {@code responseSize}
 * (bytes) of the calls answered successfully, and {@code exceptions} with its per-type counts
 * ({@code exceptions.callQueueTooBig}, ...; {@link RpcExceptionKind}).
 *
 * <p>Cellar adds, in the style of the {@code sub=Server} bean's {@code rpcGetRequestCount}, the
 * admin calls: {@code rpcAdminRequestCount}, every {@code MasterService} call, and per method
 * {@code rpcAdmin<Method>RequestCount} (the protobuf name, first letter capitalized: {@code
 * rpcAdminCreateTableRequestCount}, {@code rpcAdminGetProcedureResultRequestCount}), each call
 * counted once, answered or failed. HBase 2.6 has no such count: its IPC bean counts calls only in
 * its histograms, its region server counts {@code AdminService} calls in {@code totalRequestCount}
 * and its master counts {@code MasterService} calls nowhere.
 */
public final class IpcSource implements MetricSource {

  private final RpcMetrics metrics;
  private final ThreadPoolExecutor handlers;
  private final IntSupplier openConnections;
  private final MethodCallCounts adminCalls;

  /**
   * @param handlers the handler pool, whose queue and active threads are the general queue and
   *     handlers
   * @param openConnections how many connections are open now
   * @param adminCalls the {@code MasterService} calls by method
   */
  public IpcSource(
      RpcMetrics metrics,
      ThreadPoolExecutor handlers,
      IntSupplier openConnections,
      MethodCallCounts adminCalls) {
    this.metrics = metrics;
    this.handlers = handlers;
    this.openConnections = openConnections;
    this.adminCalls = adminCalls;
  }

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=RegionServer,sub=IPC";
  }

  @Override
  public String recordName() {
    return "IPC";
  }

  @Override
  public String context() {
    return "regionserver";
  }

  @Override
  public String description() {
    return "Metrics about the Cellar server's RPC, under HBase's IPC names";
  }

  @Override
  public List<Metric> read() {
    List<Metric> out = new ArrayList<>();
    int active = handlers.getActiveCount();
    out.add(
        Metric.gauge(
            "queueSize", "Bytes of the calls read and not yet answered", metrics.queuedBytes()));
    out.add(
        Metric.gauge(
            "numCallsInGeneralQueue", "Calls waiting for a handler", handlers.getQueue().size()));
    out.add(
        Metric.gauge(
            "numOpenConnections", "Number of open connections.", openConnections.getAsInt()));
    out.add(Metric.gauge("numActiveHandler", "Total number of active rpc handlers.", active));
    out.add(
        Metric.gauge("numActiveGeneralHandler", "Number of active general rpc handlers.", active));
    out.add(Metric.counter("sentBytes", "Number of bytes sent.", metrics.sentBytes()));
    out.add(Metric.counter("receivedBytes", "Number of bytes received.", metrics.receivedBytes()));
    out.add(
        Metric.counter(
            "authenticationSuccesses",
            "Number of authentication successes (SIMPLE connections are not counted).",
            0));
    out.add(
        Metric.counter(
            "authenticationFailures",
            "Connections refused for an authentication method other than SIMPLE",
            metrics.authenticationFailures()));
    addTimes(out, "queueCallTime", "Queue Call Time.", metrics.queueCallTime());
    addTimes(out, "processCallTime", "Processing call time.", metrics.processCallTime());
    addTimes(
        out,
        "totalCallTime",
        "Total call time, including both queued and processing time.",
        metrics.totalCallTime());
    HistogramSnapshot requests = metrics.requestSize();
    Histograms.addSizes(out, "requestSize", "Request size in bytes.", requests.count(), requests);
    HistogramSnapshot responses = metrics.responseSize();
    Histograms.addSizes(
        out, "responseSize", "Response size in bytes.", responses.count(), responses);
    out.add(Metric.counter("exceptions", "Exceptions caused by requests", metrics.exceptions()));
    for (RpcExceptionKind kind : RpcExceptionKind.values()) {
      out.add(
          Metric.counter(
              kind.metricName(),
              "Number of requests that resulted in the specified type of Exception",
              metrics.exceptions(kind)));
    }
    out.add(
        Metric.counter(
            "rpcAdminRequestCount", "Number of admin (MasterService) calls", adminCalls.total()));
    adminCalls
        .byMethod()
        .forEach(
            (method, calls) ->
                out.add(
                    Metric.counter(
                        "rpcAdmin"
                            + Character.toUpperCase(method.charAt(0))
                            + method.substring(1)
                            + "RequestCount",
                        "Number of MasterService." + method + " calls",
                        calls)));
    return out;
  }

  private static void addTimes(
      List<Metric> out, String name, String description, HistogramSnapshot snapshot) {
    Histograms.add(out, name, description, snapshot.count(), snapshot);
  }
}
