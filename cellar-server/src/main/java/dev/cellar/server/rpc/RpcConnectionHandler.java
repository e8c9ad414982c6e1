package dev.cellar.server.rpc;

import dev.cellar.server.rpc.RpcFrameDecoder.RegistryPreamble;
import dev.cellar.server.rpc.RpcFrameDecoder.Rejected;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's protocol state: the service and codec its header chose, and the dispatch of each
 * request frame to its method.
 *
 * <p><b>Frames read.</b> The first frame is the {@code ConnectionHeader} (not delimited); it must
 * name a service the server has and a codec it speaks, with no compressor. Each later frame is
 * {@code varint + RequestHeader}, {@code varint + request message}, then the cell block of the
 * length the header gives. The header's fields are read from the frame's bytes ({@link
 * RequestHead}), or, for a header that reader leaves alone, from the parsed message; a method that
 * can answer from its request's bytes (a Get) is given them before any message is built. A request
 * header that cannot be parsed leaves no call id to answer, so the connection is closed; every
 * failure after that is answered under the call's id.
 *
 * <p><b>Threads.</b> Parsing happens on the channel's event loop; methods marked inline run there
 * too, the others on the handler executor, whose bounded queue turns overload into HBase's
 * CallQueueTooBigException. Responses are written from whichever thread finished the call, one
 * buffer per frame, so they never interleave. When the channel stops being writable (a client that
 * does not read) the handler stops reading from it until it drains: memory held for a slow reader
 * is bounded by the write watermarks plus the calls already accepted.
 *
 * <p><b>Metrics.</b> Each call is timed from its parsing to its handler's start and end, and
 * counted with its request and response bytes, into the server's {@link RpcMetrics}: adders and
 * histograms, no lock and no allocation per call. A failed call counts its exception by type.
 */
final class RpcConnectionHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(RpcConnectionHandler.class);

  /** The connections closed for what they sent, logged at most once a second. */
  private static final RejectionLog REJECTIONS = new RejectionLog();

  /** Numbers the connections of the process, for {@link RpcCall#connection}. */
  private static final AtomicLong CONNECTIONS = new AtomicLong();

  private final long connection = CONNECTIONS.incrementAndGet();
  private final RpcDispatch dispatch;
  private final RpcMetrics metrics;

  /** The header of the request being read (reused: the event loop reads one at a time). */
  private final RequestHead head = new RequestHead();

  private RpcService service;
  private CellCodec codec;

  RpcConnectionHandler(RpcDispatch dispatch) {
    this.dispatch = dispatch;
    this.metrics = dispatch.metrics();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    switch (msg) {
      case RegistryPreamble ignored -> answerRegistry(ctx);
      case Rejected rejected -> closeWith(ctx, rejected.reason());
      case ByteBuf frame -> {
        try {
          if (service == null) {
            readConnectionHeader(frame);
          } else {
            readRequest(ctx, frame);
          }
        } catch (RpcException e) {
          closeWith(ctx, e);
        } finally {
          frame.release();
        }
      }
      default -> throw new IllegalStateException("unexpected message " + msg);
    }
  }

  private void answerRegistry(ChannelHandlerContext ctx) {
    GetConnectionRegistryResponse response =
        GetConnectionRegistryResponse.newBuilder().setClusterId(dispatch.clusterId()).build();
    ctx.writeAndFlush(counted(ResponseFrames.success(ctx.alloc(), -1, response, null)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  private void closeWith(ChannelHandlerContext ctx, RpcException reason) {
    REJECTIONS.rejected(ctx.channel().remoteAddress(), reason.getMessage());
    ctx.channel().config().setAutoRead(false);
    ctx.writeAndFlush(counted(ResponseFrames.error(ctx.alloc(), -1, reason)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  private void readConnectionHeader(ByteBuf frame) throws RpcException {
    ConnectionHeader header;
    try {
      header = ConnectionHeader.parser().parseFrom(frame.nioBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw RpcException.doNotRetry(
          RpcException.FATAL_CONNECTION,
          "the connection header is not a ConnectionHeader message: " + e.getMessage());
    }
    RpcService chosen = dispatch.service(header.getServiceName());
    if (chosen == null) {
      throw RpcException.doNotRetry(
          RpcException.FATAL_CONNECTION, "unknown service '" + header.getServiceName() + "'");
    }
    CellCodec chosenCodec = CellCodec.forClassName(header.getCellBlockCodecClass());
    if (chosenCodec == null) {
      throw RpcException.doNotRetry(
          RpcException.UNSUPPORTED_CELL_CODEC,
          "cell block codec "
              + header.getCellBlockCodecClass()
              + " is not supported; use KeyValueCodec");
    }
    if (header.hasCellBlockCompressorClass() && !header.getCellBlockCompressorClass().isEmpty()) {
      throw RpcException.doNotRetry(
          RpcException.UNSUPPORTED_COMPRESSION_CODEC,
          "cell block compressor " + header.getCellBlockCompressorClass() + " is not supported");
    }
    service = chosen;
    codec = chosenCodec;
  }

  private void readRequest(ChannelHandlerContext ctx, ByteBuf frame) throws RpcException {
    ByteBuffer nio =
        frame.nioBufferCount() == 1
            ? frame.internalNioBuffer(frame.readerIndex(), frame.readableBytes())
            : frame.nioBuffer();
    int base = nio.position();
    int end = nio.limit();
    RpcMethod<?> method;
    if (head.readFrame(nio, base, end)) {
      method = service.method(nio, head.methodOffset, head.methodLength);
    } else {
      method = parseHead(nio, base, end);
    }
    int callId = head.callId;
    if (method == null) {
      String name = methodName(nio);
      String refusal = service.refusal(name);
      reply(
          ctx,
          callId,
          RpcException.doNotRetry(
              refusal != null
                  ? refusal
                  : "unknown method '" + name + "' of service " + service.name()));
      return;
    }
    if (head.paramLength < 0 || head.paramLength > end - head.paramStart) {
      reply(
          ctx,
          callId,
          RpcException.doNotRetry(
              "the request of "
                  + service.name()
                  + "."
                  + method.name()
                  + " could not be parsed: its length "
                  + head.paramLength
                  + " runs past the frame's "
                  + frame.readableBytes()
                  + " bytes"));
      return;
    }
    int paramStart = head.paramStart - base;
    int consumed = paramStart + head.paramLength;
    int cellBytes = head.cellBlockLength;
    if (cellBytes != frame.readableBytes() - consumed) {
      reply(
          ctx,
          callId,
          RpcException.doNotRetry(
              "the request's cell block is "
                  + cellBytes
                  + " bytes by its header but "
                  + (frame.readableBytes() - consumed)
                  + " in the frame"));
      return;
    }
    ByteBuf cells =
        cellBytes == 0 ? null : frame.retainedSlice(frame.readerIndex() + consumed, cellBytes);
    RpcCall call =
        new RpcCall(
            connection,
            callId,
            method.name(),
            head.priority,
            head.timeout,
            System.nanoTime(),
            codec,
            cells,
            ctx.alloc(),
            frame.readableBytes());
    metrics.callAccepted(call.requestBytes());
    if (method.inline()
        && method.fromBytes() != null
        && head.requestParam
        && answeredFromBytes(
            ctx, call, method, nio.limit(base + consumed).position(base + paramStart))) {
      return;
    }
    Message param;
    try {
      param =
          parseParam(
              nio.limit(base + consumed).position(base + paramStart), method, head.requestParam);
    } catch (IOException e) {
      metrics.callDone(call.requestBytes());
      call.close();
      reply(
          ctx,
          callId,
          RpcException.doNotRetry(
              "the request of "
                  + service.name()
                  + "."
                  + method.name()
                  + " could not be parsed: "
                  + e.getMessage()));
      return;
    }
    if (method.inline()) {
      run(ctx, call, method, param);
      return;
    }
    try {
      dispatch.handlers().execute(() -> run(ctx, call, method, param));
    } catch (RejectedExecutionException e) {
      metrics.callDone(call.requestBytes());
      call.close();
      reply(
          ctx,
          callId,
          new RpcException(
              RpcException.CALL_QUEUE_TOO_BIG,
              "the call queue is full (hbase.ipc.server.max.callqueue.length)",
              false,
              true));
    }
  }

  /**
   * Parses the request header in [base, end) of {@code nio} as a message into {@link #head} (when
   * {@link RequestHead#readFrame} could not read it); returns its method, or null.
   *
   * @throws RpcException FatalConnectionException when the header cannot be parsed (there is no
   *     call id to answer)
   */
  private RpcMethod<?> parseHead(ByteBuffer nio, int base, int end) throws RpcException {
    CodedInputStream in = CodedInputStream.newInstance(nio.duplicate().limit(end).position(base));
    RequestHeader header;
    try {
      int limit = in.pushLimit(in.readRawVarint32());
      header = RequestHeader.parser().parseFrom(in);
      in.popLimit(limit);
    } catch (IOException e) {
      throw RpcException.doNotRetry(
          RpcException.FATAL_CONNECTION, "a request header could not be parsed: " + e.getMessage());
    }
    int paramLength;
    try {
      paramLength = header.getRequestParam() ? in.readRawVarint32() : 0;
    } catch (IOException e) {
      paramLength = -1;
    }
    int paramStart = base + in.getTotalBytesRead();
    head.from(header, paramStart, paramLength);
    return service.method(header.getMethodNameBytes());
  }

  /** The method name of the request {@link #head} describes, for an error. */
  private String methodName(ByteBuffer nio) {
    if (head.parsed != null) {
      return head.parsed.getMethodName();
    }
    byte[] name = new byte[head.methodLength];
    nio.get(head.methodOffset, name);
    return new String(name, java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * Tries the method's answer from the request's bytes ({@code request}, the buffer the frame was
   * read through, its position and limit set around the request message); true if it answered.
   */
  private boolean answeredFromBytes(
      ChannelHandlerContext ctx, RpcCall call, RpcMethod<?> method, ByteBuffer request) {
    long started = System.nanoTime();
    Message response;
    try {
      response = method.fromBytes().handle(call, request);
      if (response == null) {
        return false;
      }
    } catch (Exception | Error e) {
      RpcException failure = Failures.toRpc(service.name() + "." + method.name(), e);
      metrics.exception(failure.className());
      ByteBuf frame = ResponseFrames.error(ctx.alloc(), call.callId(), failure);
      metrics.callDone(call.requestBytes());
      call.close();
      ctx.writeAndFlush(counted(frame), ctx.voidPromise());
      return true;
    }
    ByteBuf frame;
    try {
      frame =
          ResponseFrames.success(ctx.alloc(), call.callId(), response, call.cells().takeRetained());
      metrics.callAnswered(
          call.requestBytes(),
          frame.readableBytes(),
          call.receivedNanos(),
          started,
          System.nanoTime());
    } finally {
      metrics.callDone(call.requestBytes());
      call.close();
    }
    ctx.writeAndFlush(counted(frame), ctx.voidPromise());
    return true;
  }

  /** The request message in {@code request} (between its position and limit). */
  private static Message parseParam(ByteBuffer request, RpcMethod<?> method, boolean requestParam)
      throws IOException {
    if (!requestParam) {
      return method.parser().parseFrom(new byte[0]);
    }
    return method.parser().parseFrom(CodedInputStream.newInstance(request));
  }

  @SuppressWarnings("unchecked")
  private void run(ChannelHandlerContext ctx, RpcCall call, RpcMethod<?> method, Message param) {
    long started = System.nanoTime();
    ByteBuf frame;
    try {
      Message response = ((RpcMethod<Message>) method).handler().handle(call, param);
      frame =
          ResponseFrames.success(ctx.alloc(), call.callId(), response, call.cells().takeRetained());
      metrics.callAnswered(
          call.requestBytes(),
          frame.readableBytes(),
          call.receivedNanos(),
          started,
          System.nanoTime());
    } catch (Exception | Error e) {
      RpcException failure = Failures.toRpc(service.name() + "." + method.name(), e);
      metrics.exception(failure.className());
      frame = ResponseFrames.error(ctx.alloc(), call.callId(), failure);
    } finally {
      metrics.callDone(call.requestBytes());
      call.close();
    }
    ctx.writeAndFlush(counted(frame), ctx.voidPromise());
  }

  /** Answers call {@code callId} with {@code failure}, counting it. */
  private void reply(ChannelHandlerContext ctx, int callId, RpcException failure) {
    metrics.exception(failure.className());
    ctx.writeAndFlush(counted(ResponseFrames.error(ctx.alloc(), callId, failure)));
  }

  /** {@code frame}, its bytes counted as sent. */
  private ByteBuf counted(ByteBuf frame) {
    metrics.sent(frame.readableBytes());
    return frame;
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
