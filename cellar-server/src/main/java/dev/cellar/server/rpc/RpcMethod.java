package dev.cellar.server.rpc;

import java.nio.ByteBuffer;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * One method of a service: how its request message is parsed, what answers it, whether it is cheap
 * enough to answer on the connection's event loop (registry and catalog lookups) rather than on a
 * handler thread, and, optionally, a way to answer it from the request's bytes without parsing them
 * into messages ({@code fromBytes}, tried first for a method answered inline).
 */
public record RpcMethod<M extends Message>(
    String name, Parser<M> parser, Handler<M> handler, boolean inline, BytesHandler fromBytes) {

  /** Answers one call; the cells of the answer go to {@link RpcCall#cells()}. */
  @FunctionalInterface
  public interface Handler<M extends Message> {
    Message handle(RpcCall call, M request) throws Exception;
  }

  /**
   * Answers one call from its serialized request (between the buffer's position and limit, valid
   * during the call only), or returns null, having read nothing that matters, when the request is
   * not one it answers this way: it is then parsed and given to the {@link Handler}.
   */
  @FunctionalInterface
  public interface BytesHandler {
    Message handle(RpcCall call, ByteBuffer request) throws Exception;
  }

  /** A method answered on a handler thread. */
  public static <M extends Message> RpcMethod<M> of(
      String name, Parser<M> parser, Handler<M> handler) {
    return new RpcMethod<>(name, parser, handler, false, null);
  }

  /** A method answered on the event loop: it must not block. */
  public static <M extends Message> RpcMethod<M> inline(
      String name, Parser<M> parser, Handler<M> handler) {
    return new RpcMethod<>(name, parser, handler, true, null);
  }
}
