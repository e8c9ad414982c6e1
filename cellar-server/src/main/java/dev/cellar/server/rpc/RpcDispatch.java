package dev.cellar.server.rpc;

import java.util.Map;
import java.util.concurrent.Executor;

/**
 * What every connection dispatches to: the services by name, the handler executor and the cluster
 * id the registry preamble answers with. Immutable and shared by all connections.
 */
public record RpcDispatch(Map<String, RpcService> services, Executor handlers, String clusterId) {

  public RpcDispatch {
    services = Map.copyOf(services);
  }

  /** The service named {@code name}, or null. */
  public RpcService service(String name) {
    return services.get(name);
  }
}
