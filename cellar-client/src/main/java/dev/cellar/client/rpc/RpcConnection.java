package dev.cellar.client.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * One TCP connection to one service of the server, with any number of calls in flight on it
 * (pipelining): each request goes out as soon as it is made, and answers, which may come in any
 * order, are matched to their calls by call id.
 *
 * <p><b>Frames written</b> (HBase 2.x): the preamble {@code "HBas", 0, 80} (version 0, simple
 * authentication) and the {@code int32 length + ConnectionHeader} naming the service and the
 * KeyValue cell codec, then per call {@code int32 length}, the varint-delimited {@code
 * RequestHeader} (call id, method, cell block length), the varint-delimited request message and the
 * request's cell block. <b>Frames read</b>: {@code int32 length}, the delimited {@code
 * ResponseHeader}, then either nothing (the header carries the exception) or the delimited response
 * message and the cell block of the length the header gives.
 *
 * <p><b>Threads and memory.</b> Calls are written from the caller's thread into a pooled buffer and
 * handed to the channel, which writes frames whole and in order. Answers are parsed on the
 * channel's event loop; the cell block stays in the received frame's pooled buffer, a retained
 * slice handed to the caller (see {@link RpcResponse}). The map of pending calls is concurrent; a
 * call is completed once, by its answer, its timer (scheduled on the event loop) or the
 * connection's end, which fails every call still pending with {@link ConnectionClosedException}.
 */
final class RpcConnection {

  static final String KEY_VALUE_CODEC = "org.apache.hadoop.hbase.codec.KeyValueCodec";
  private static final byte[] PREAMBLE = {'H', 'B', 'a', 's', 0, 80};

  private final Channel channel;
  private final String service;
  private final Map<Integer, PendingCall<?>> pending = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private RpcConnection(Channel channel, String service) {
    this.channel = channel;
    this.service = service;
  }

  /** Wraps a connected channel, installs the response handler and sends the connection header. */
  static RpcConnection start(Channel channel, String service, String user) {
    RpcConnection connection = new RpcConnection(channel, service);
    channel.pipeline().addLast("responses", connection.new ResponseHandler());
    ConnectionHeader header =
        ConnectionHeader.newBuilder()
            .setServiceName(service)
            .setCellBlockCodecClass(KEY_VALUE_CODEC)
            .setUserInfo(
                org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.UserInformation
                    .newBuilder()
                    .setEffectiveUser(user))
            .build();
    byte[] bytes = header.toByteArray();
    ByteBuf frame = channel.alloc().buffer(PREAMBLE.length + 4 + bytes.length);
    frame.writeBytes(PREAMBLE).writeInt(bytes.length).writeBytes(bytes);
    channel.writeAndFlush(frame);
    channel
        .closeFuture()
        .addListener(
            done ->
                connection.failAll(
                    "the connection to " + channel.remoteAddress() + " (" + service + ") closed",
                    null));
    return connection;
  }

  boolean isActive() {
    return !closed && channel.isActive();
  }

  /** The number of calls sent and not yet answered. */
  int pendingCalls() {
    return pending.size();
  }

  /**
   * Sends a call; the future completes with its answer, fails with a {@link RemoteException}, a
   * {@link CallTimeoutException} after {@code timeoutMillis}, or a {@link
   * ConnectionClosedException}. Takes over {@code cells} (the request's cell block, may be null).
   */
  <T extends Message> CompletableFuture<RpcResponse<T>> call(
      int callId,
      String method,
      Message request,
      ByteBuf cells,
      Parser<T> parser,
      long timeoutMillis) {
    PendingCall<T> call = new PendingCall<>(callId, method, parser);
    ByteBuf frame;
    try {
      frame = frame(callId, method, request, cells, timeoutMillis);
    } catch (IOException | RuntimeException e) {
      call.fail(e);
      return call.future;
    } finally {
      if (cells != null) {
        cells.release();
      }
    }
    pending.put(callId, call);
    if (closed) {
      pending.remove(callId);
      frame.release();
      call.fail(
          new ConnectionClosedException(
              "the connection to " + channel.remoteAddress() + " is closed", null));
      return call.future;
    }
    call.timer =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  if (pending.remove(callId, call)) {
                    call.fail(
                        new CallTimeoutException(
                            service
                                + "."
                                + method
                                + " (call "
                                + callId
                                + ") got no answer from "
                                + channel.remoteAddress()
                                + " in "
                                + timeoutMillis
                                + " ms"));
                  }
                },
                timeoutMillis,
                TimeUnit.MILLISECONDS);
    channel
        .writeAndFlush(frame)
        .addListener(
            (ChannelFutureListener)
                written -> {
                  if (!written.isSuccess() && pending.remove(callId, call)) {
                    call.fail(
                        new ConnectionClosedException(
                            "writing "
                                + service
                                + "."
                                + method
                                + " to "
                                + channel.remoteAddress()
                                + " failed",
                            written.cause()));
                  }
                });
    return call.future;
  }

  /** The frame of one call: see the class comment. */
  private ByteBuf frame(
      int callId, String method, Message request, ByteBuf cells, long timeoutMillis)
      throws IOException {
    RequestHeader.Builder header =
        RequestHeader.newBuilder()
            .setCallId(callId)
            .setMethodName(method)
            .setRequestParam(true)
            .setTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis));
    int cellBytes = cells == null ? 0 : cells.readableBytes();
    if (cellBytes > 0) {
      header.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBytes));
    }
    RequestHeader built = header.build();
    int headerSize = built.getSerializedSize();
    int requestSize = request.getSerializedSize();
    int length =
        varintSize(headerSize) + headerSize + varintSize(requestSize) + requestSize + cellBytes;
    ByteBuf frame = channel.alloc().directBuffer(4 + length);
    try {
      frame.writeInt(length);
      try (ByteBufOutputStream out = new ByteBufOutputStream(frame)) {
        built.writeDelimitedTo(out);
        request.writeDelimitedTo(out);
      }
      if (cellBytes > 0) {
        frame.writeBytes(cells, cells.readerIndex(), cellBytes);
      }
      return frame;
    } catch (IOException | RuntimeException e) {
      frame.release();
      throw e;
    }
  }

  private static int varintSize(int value) {
    return org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream.computeUInt32SizeNoTag(
        value);
  }

  void close() {
    closed = true;
    channel.close();
  }

  private void failAll(String why, Throwable cause) {
    closed = true;
    for (Integer callId : pending.keySet()) {
      PendingCall<?> call = pending.remove(callId);
      if (call != null) {
        call.fail(
            cause instanceof IOException io
                ? io
                : new ConnectionClosedException(
                    why
                        + " before "
                        + service
                        + "."
                        + call.method
                        + " (call "
                        + callId
                        + ") was answered",
                    cause));
      }
    }
  }

  /** Parses each response frame and completes its call; runs on the channel's event loop. */
  private final class ResponseHandler extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf frame = (ByteBuf) msg;
      try {
        read(frame);
      } catch (IOException | RuntimeException e) {
        failAll("a response from " + channel.remoteAddress() + " could not be read", e);
        ctx.close();
      } finally {
        frame.release();
      }
    }

    private void read(ByteBuf frame) throws IOException {
      CodedInputStream in = CodedInputStream.newInstance(frame.nioBuffer());
      int limit = in.pushLimit(in.readRawVarint32());
      ResponseHeader header = ResponseHeader.parser().parseFrom(in);
      in.popLimit(limit);
      if (header.getCallId() == -1 && header.hasException()) {
        RemoteException fatal = RemoteException.of(header.getException());
        failAll(fatal.getMessage(), fatal);
        channel.close();
        return;
      }
      PendingCall<?> call = pending.remove(header.getCallId());
      if (call == null) {
        return;
      }
      if (header.hasException()) {
        RemoteException failure = RemoteException.of(header.getException());
        call.fail(failure);
        if (RemoteFailures.isFatalConnection(failure.className())) {
          failAll(failure.getMessage(), failure);
          channel.close();
        }
        return;
      }
      complete(call, in, header, frame);
    }

    private <T extends Message> void complete(
        PendingCall<T> call, CodedInputStream in, ResponseHeader header, ByteBuf frame)
        throws IOException {
      T message;
      try {
        int limit = in.pushLimit(in.readRawVarint32());
        message = call.parser.parseFrom(in);
        in.popLimit(limit);
      } catch (IOException e) {
        call.fail(
            new IOException(
                "the answer to "
                    + service
                    + "."
                    + call.method
                    + " (call "
                    + call.callId
                    + ") could not be parsed: "
                    + e.getMessage(),
                e));
        return;
      }
      int consumed = in.getTotalBytesRead();
      int cellBytes = header.hasCellBlockMeta() ? header.getCellBlockMeta().getLength() : 0;
      if (cellBytes != frame.readableBytes() - consumed) {
        call.fail(
            new IOException(
                "the answer to "
                    + service
                    + "."
                    + call.method
                    + " (call "
                    + call.callId
                    + ") has a cell block of "
                    + (frame.readableBytes() - consumed)
                    + " bytes, its header says "
                    + cellBytes));
        return;
      }
      ByteBuf cells =
          cellBytes == 0 ? null : frame.retainedSlice(frame.readerIndex() + consumed, cellBytes);
      call.succeed(new RpcResponse<>(message, cells));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      failAll("the connection to " + channel.remoteAddress() + " failed", cause);
      ctx.close();
    }
  }

  @Override
  public String toString() {
    return service + "@" + channel.remoteAddress();
  }
}
