package dev.cellar.server.rpc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * A service as a connection header names it ({@code ClientService}, {@code MasterService}, ...) and
 * its methods by their case-sensitive protobuf names, also as the UTF-8 bytes a request header
 * carries them in, so that dispatching a call decodes no string. Immutable.
 */
public final class RpcService {

  private final String name;
  private final Map<String, RpcMethod<?>> methods = new HashMap<>();
  private final Map<ByteString, RpcMethod<?>> methodsByBytes = new HashMap<>();
  private final RpcMethod<?>[] byIndex;
  private final byte[][] namesByIndex;
  private final Map<String, String> refusals;

  /** A service of {@code methods}, refusing nothing by name (an unknown method is unknown). */
  public RpcService(String name, List<RpcMethod<?>> methods) {
    this(name, methods, Map.of());
  }

  /**
   * A service of {@code methods} that refuses the methods {@code refusals} names, each with its
   * message: the methods of HBase's service that Cellar does not serve, so that a client learns
   * what it asked for is not supported rather than that it does not exist.
   */
  public RpcService(String name, List<RpcMethod<?>> methods, Map<String, String> refusals) {
    this.name = name;
    this.refusals = Map.copyOf(refusals);
    this.byIndex = methods.toArray(new RpcMethod<?>[0]);
    this.namesByIndex = new byte[byIndex.length][];
    for (int i = 0; i < byIndex.length; i++) {
      RpcMethod<?> method = byIndex[i];
      this.methods.put(method.name(), method);
      this.methodsByBytes.put(ByteString.copyFromUtf8(method.name()), method);
      namesByIndex[i] = method.name().getBytes(StandardCharsets.UTF_8);
    }
  }

  public String name() {
    return name;
  }

  /** Why the method {@code method}, which is not served, is refused; null if it is unknown. */
  public String refusal(String method) {
    return refusals.get(method);
  }

  /** The method named {@code method}, or null. */
  public RpcMethod<?> method(String method) {
    return methods.get(method);
  }

  /**
   * The method whose name's UTF-8 bytes are the {@code length} bytes of {@code buffer} at {@code
   * offset}, or null; compares them with each name in turn (a service has a few dozen at most).
   */
  public RpcMethod<?> method(ByteBuffer buffer, int offset, int length) {
    for (int i = 0; i < namesByIndex.length; i++) {
      byte[] candidate = namesByIndex[i];
      if (candidate.length == length && sameBytes(buffer, offset, candidate)) {
        return byIndex[i];
      }
    }
    return null;
  }

  private static boolean sameBytes(ByteBuffer buffer, int offset, byte[] name) {
    for (int i = 0; i < name.length; i++) {
      if (buffer.get(offset + i) != name[i]) {
        return false;
      }
    }
    return true;
  }

  /** The method whose name's UTF-8 bytes are {@code method}, or null. */
  public RpcMethod<?> method(ByteString method) {
    return methodsByBytes.get(method);
  }
}
