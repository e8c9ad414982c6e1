package dev.cellar.server.rpc;

import java.util.Map;
import java.util.concurrent.Executor;

/**
 * What every connection dispatches to: the services by name, the handler executor, the cluster id
 * the registry preamble answers with, and the metrics every connection records into. Immutable and
 * shared by all connections.
 */
public record RpcDispatch(
    Map<String, RpcService> services, Executor handlers, String clusterId, RpcMetrics metrics) {

  public RpcDispatch {
    services = Map.copyOf(services);
  }

  /** The service named {@code name}, or null. */
  public RpcService service(String name) {
    return services.get(name);
  }
}
