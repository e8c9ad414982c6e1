package dev.cellar.server.rpc;

import dev.cellar.server.rpc.RpcFrameDecoder.Rejected;
import dev.cellar.server.rpc.RpcFrameDecoder.RegistryPreamble;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's protocol state: the service and codec its header chose, and the dispatch of
 * each request frame to its method.
 *
 * <p><b>Frames read.</b> The first frame is the {@code ConnectionHeader} (not delimited); it must
 * name a service the server has and a codec it speaks, with no compressor. Each later frame is
 * {@code varint + RequestHeader}, {@code varint + request message}, then the cell block of the
 * length the header gives. A request header that cannot be parsed leaves no call id to answer, so
 * the connection is closed; every failure after that is answered under the call's id.
 *
 * <p><b>Threads.</b> Parsing happens on the channel's event loop; methods marked inline run there
 * too, the others on the handler executor, whose bounded queue turns overload into HBase's
 * CallQueueTooBigException. Responses are written from whichever thread finished the call, one
 * buffer per frame, so they never interleave. When the channel stops being writable (a client that
 * does not read) the handler stops reading from it until it drains: memory held for a slow reader
 * is bounded by the write watermarks plus the calls already accepted.
 */
final class RpcConnectionHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(RpcConnectionHandler.class);

  private final RpcDispatch dispatch;
  private RpcService service;
  private CellCodec codec;

  RpcConnectionHandler(RpcDispatch dispatch) {
    this.dispatch = dispatch;
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
    GetConnectionRegistryResponse response = GetConnectionRegistryResponse.newBuilder()
        .setClusterId(dispatch.clusterId()).build();
    ctx.writeAndFlush(ResponseFrames.success(ctx.alloc(), -1, response, null))
        .addListener(ChannelFutureListener.CLOSE);
  }

  private void closeWith(ChannelHandlerContext ctx, RpcException reason) {
    LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), reason.getMessage());
    ctx.channel().config().setAutoRead(false);
    ctx.writeAndFlush(ResponseFrames.error(ctx.alloc(), -1, reason))
        .addListener(ChannelFutureListener.CLOSE);
  }

  private void readConnectionHeader(ByteBuf frame) throws RpcException {
    ConnectionHeader header;
    try {
      header = ConnectionHeader.parser().parseFrom(frame.nioBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw RpcException.doNotRetry(RpcException.FATAL_CONNECTION,
          "the connection header is not a ConnectionHeader message: " + e.getMessage());
    }
    RpcService chosen = dispatch.service(header.getServiceName());
    if (chosen == null) {
      throw RpcException.doNotRetry(RpcException.FATAL_CONNECTION,
          "unknown service '" + header.getServiceName() + "'");
    }
    CellCodec chosenCodec = CellCodec.forClassName(header.getCellBlockCodecClass());
    if (chosenCodec == null) {
      throw RpcException.doNotRetry(RpcException.UNSUPPORTED_CELL_CODEC, "cell block codec "
          + header.getCellBlockCodecClass() + " is not supported; use KeyValueCodec");
    }
    if (header.hasCellBlockCompressorClass()
        && !header.getCellBlockCompressorClass().isEmpty()) {
      throw RpcException.doNotRetry(RpcException.UNSUPPORTED_COMPRESSION_CODEC,
          "cell block compressor " + header.getCellBlockCompressorClass() + " is not supported");
    }
    service = chosen;
    codec = chosenCodec;
  }

  private void readRequest(ChannelHandlerContext ctx, ByteBuf frame) throws RpcException {
    CodedInputStream in = CodedInputStream.newInstance(frame.nioBufferCount() == 1
        ? frame.internalNioBuffer(frame.readerIndex(), frame.readableBytes())
        : frame.nioBuffer());
    RequestHeader header;
    try {
      int limit = in.pushLimit(in.readRawVarint32());
      header = RequestHeader.parser().parseFrom(in);
      in.popLimit(limit);
    } catch (IOException e) {
      throw RpcException.doNotRetry(RpcException.FATAL_CONNECTION,
          "a request header could not be parsed: " + e.getMessage());
    }
    int callId = header.getCallId();
    RpcMethod<?> method = service.method(header.getMethodNameBytes());
    if (method == null) {
      reply(ctx, callId, RpcException.doNotRetry("unknown method '" + header.getMethodName()
          + "' of service " + service.name()));
      return;
    }
    Message param;
    try {
      param = parseParam(in, method, header);
    } catch (IOException e) {
      reply(ctx, callId, RpcException.doNotRetry("the request of " + service.name() + "."
          + method.name() + " could not be parsed: " + e.getMessage()));
      return;
    }
    int consumed = in.getTotalBytesRead();
    int cellBytes = header.hasCellBlockMeta() ? header.getCellBlockMeta().getLength() : 0;
    if (cellBytes != frame.readableBytes() - consumed) {
      reply(ctx, callId, RpcException.doNotRetry("the request's cell block is " + cellBytes
          + " bytes by its header but " + (frame.readableBytes() - consumed) + " in the frame"));
      return;
    }
    ByteBuf cells = cellBytes == 0 ? null
        : frame.retainedSlice(frame.readerIndex() + consumed, cellBytes);
    RpcCall call = new RpcCall(callId, method.name(), header.getPriority(), header.getTimeout(),
        System.nanoTime(), codec, cells, ctx.alloc());
    if (method.inline()) {
      run(ctx, call, method, param);
      return;
    }
    try {
      dispatch.handlers().execute(() -> run(ctx, call, method, param));
    } catch (RejectedExecutionException e) {
      call.close();
      reply(ctx, callId, new RpcException(RpcException.CALL_QUEUE_TOO_BIG,
          "the call queue is full (hbase.ipc.server.max.callqueue.length)", false, true));
    }
  }

  private static Message parseParam(CodedInputStream in, RpcMethod<?> method,
      RequestHeader header) throws IOException {
    if (!header.getRequestParam()) {
      return method.parser().parseFrom(new byte[0]);
    }
    int limit = in.pushLimit(in.readRawVarint32());
    Message param = method.parser().parseFrom(in);
    in.popLimit(limit);
    return param;
  }

  @SuppressWarnings("unchecked")
  private void run(ChannelHandlerContext ctx, RpcCall call, RpcMethod<?> method, Message param) {
    ByteBuf frame;
    try {
      Message response = ((RpcMethod<Message>) method).handler().handle(call, param);
      frame = ResponseFrames.success(ctx.alloc(), call.callId(), response,
          call.cells().takeRetained());
    } catch (Exception | Error e) {
      frame = ResponseFrames.error(ctx.alloc(), call.callId(),
          Failures.toRpc(service.name() + "." + method.name(), e));
    } finally {
      call.close();
    }
    ctx.writeAndFlush(frame, ctx.voidPromise());
  }

  private static void reply(ChannelHandlerContext ctx, int callId, RpcException failure) {
    ctx.writeAndFlush(ResponseFrames.error(ctx.alloc(), callId, failure));
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
