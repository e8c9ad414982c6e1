package dev.cellar.server.rpc;

import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * One method of a service: how its request message is parsed, what answers it, and whether it is
 * cheap enough to answer on the connection's event loop (registry and catalog lookups) rather than
 * on a handler thread.
 */
public record RpcMethod<M extends Message>(String name, Parser<M> parser, Handler<M> handler,
    boolean inline) {

  /** Answers one call; the cells of the answer go to {@link RpcCall#cells()}. */
  @FunctionalInterface
  public interface Handler<M extends Message> {
    Message handle(RpcCall call, M request) throws Exception;
  }

  /** A method answered on a handler thread. */
  public static <M extends Message> RpcMethod<M> of(String name, Parser<M> parser,
      Handler<M> handler) {
    return new RpcMethod<>(name, parser, handler, false);
  }

  /** A method answered on the event loop: it must not block. */
  public static <M extends Message> RpcMethod<M> inline(String name, Parser<M> parser,
      Handler<M> handler) {
    return new RpcMethod<>(name, parser, handler, true);
  }
}
