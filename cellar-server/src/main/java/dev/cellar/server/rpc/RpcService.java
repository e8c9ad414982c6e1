package dev.cellar.server.rpc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A service as a connection header names it ({@code ClientService}, {@code MasterService}, ...)
 * and its methods by their case-sensitive protobuf names. Immutable.
 */
public final class RpcService {

  private final String name;
  private final Map<String, RpcMethod<?>> methods = new HashMap<>();

  public RpcService(String name, List<RpcMethod<?>> methods) {
    this.name = name;
    for (RpcMethod<?> method : methods) {
      this.methods.put(method.name(), method);
    }
  }

  public String name() {
    return name;
  }

  /** The method named {@code method}, or null. */
  public RpcMethod<?> method(String method) {
    return methods.get(method);
  }
}
