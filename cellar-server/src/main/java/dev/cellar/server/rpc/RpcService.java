package dev.cellar.server.rpc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * A service as a connection header names it ({@code ClientService}, {@code MasterService}, ...)
 * and its methods by their case-sensitive protobuf names, also as the UTF-8 bytes a request header
 * carries them in, so that dispatching a call decodes no string. Immutable.
 */
public final class RpcService {

  private final String name;
  private final Map<String, RpcMethod<?>> methods = new HashMap<>();
  private final Map<ByteString, RpcMethod<?>> methodsByBytes = new HashMap<>();

  public RpcService(String name, List<RpcMethod<?>> methods) {
    this.name = name;
    for (RpcMethod<?> method : methods) {
      this.methods.put(method.name(), method);
      this.methodsByBytes.put(ByteString.copyFromUtf8(method.name()), method);
    }
  }

  public String name() {
    return name;
  }

  /** The method named {@code method}, or null. */
  public RpcMethod<?> method(String method) {
    return methods.get(method);
  }

  /** The method whose name's UTF-8 bytes are {@code method}, or null. */
  public RpcMethod<?> method(ByteString method) {
    return methodsByBytes.get(method);
  }
}
