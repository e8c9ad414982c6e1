package dev.cellar.server.rpc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * The calls of one service's methods, counted by method: {@link #counting} wraps each method's
 * handlers so that every call it is given (answered or failed) counts once, before it runs. Only
 * the services handed to it pay that increment; the others' calls go through untouched.
 *
 * <p><b>Cost.</b> One {@link LongAdder} per method and one for all: an increment takes no lock and
 * allocates nothing.
 *
 * <p>Thread-safe: the methods are registered once, before the service answers a call, and published
 * through a volatile field; counting and reading go on from any thread.
 */
public final class MethodCallCounts {

  private final LongAdder total = new LongAdder();
  private volatile Map<String, LongAdder> byMethod = Map.of();

  /**
   * {@code methods}, each counting its calls here, in the same order.
   *
   * @throws IllegalStateException if methods were counted here already
   */
  public synchronized List<RpcMethod<?>> counting(List<RpcMethod<?>> methods) {
    if (!byMethod.isEmpty()) {
      throw new IllegalStateException("the methods of one service are counted here already");
    }
    Map<String, LongAdder> counts = new LinkedHashMap<>();
    List<RpcMethod<?>> counted = new ArrayList<>();
    for (RpcMethod<?> method : methods) {
      LongAdder calls = new LongAdder();
      counts.put(method.name(), calls);
      counted.add(counted(method, calls));
    }
    byMethod = Collections.unmodifiableMap(counts);
    return counted;
  }

  private <M extends Message> RpcMethod<M> counted(RpcMethod<M> method, LongAdder calls) {
    RpcMethod.Handler<M> handler = method.handler();
    RpcMethod.BytesHandler fromBytes = method.fromBytes();
    return new RpcMethod<>(
        method.name(),
        method.parser(),
        (call, request) -> {
          calls.increment();
          total.increment();
          return handler.handle(call, request);
        },
        method.inline(),
        fromBytes == null
            ? null
            : (call, bytes) -> {
              Message answer = fromBytes.handle(call, bytes);
              if (answer != null) {
                calls.increment();
                total.increment();
              }
              return answer;
            });
  }

  /** The calls of every method. */
  public long total() {
    return total.sum();
  }

  /** The calls of each method by its name, in the service's order. */
  public Map<String, Long> byMethod() {
    Map<String, Long> counts = new LinkedHashMap<>();
    byMethod.forEach((method, calls) -> counts.put(method, calls.sum()));
    return counts;
  }
}
