package dev.cellar.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Writes response frames. A frame is {@code int32 total} (the bytes after it), the varint-delimited
 * {@code ResponseHeader} (call id; an {@code ExceptionResponse} on failure; the cell block's length
 * when there is one), then on success the varint-delimited response message and the cell block's
 * bytes. Each frame is one buffer (or one composite of the head and the cell block; a {@link
 * PinnedCellBlock}, already a composite, takes the head as its first part), so that frames
 * written from several handler threads never interleave. Stateless.
 */
public final class ResponseFrames {

  private ResponseFrames() {}

  /**
   * A success frame; takes ownership of {@code cellBlock} (null for none), which becomes the frame's
   * tail without being copied.
   */
  public static ByteBuf success(ByteBufAllocator allocator, int callId, Message response,
      ByteBuf cellBlock) {
    ResponseHeader.Builder header = ResponseHeader.newBuilder().setCallId(callId);
    int cellBytes = cellBlock == null ? 0 : cellBlock.readableBytes();
    if (cellBytes > 0) {
      header.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBytes));
    }
    ByteBuf head = head(allocator, header.build(), response, cellBytes);
    if (cellBlock == null) {
      return head;
    }
    if (cellBytes == 0) {
      cellBlock.release();
      return head;
    }
    if (cellBlock instanceof PinnedCellBlock parts) {
      parts.addComponent(true, 0, head);
      return parts;
    }
    CompositeByteBuf frame = allocator.compositeDirectBuffer(2);
    frame.addComponents(true, head, cellBlock);
    return frame;
  }

  /** An error frame for call {@code callId} (-1 when the failure is the connection's). */
  public static ByteBuf error(ByteBufAllocator allocator, int callId, RpcException failure) {
    ExceptionResponse.Builder exception = ExceptionResponse.newBuilder()
        .setExceptionClassName(failure.className())
        .setStackTrace(failure.getMessage() == null ? failure.className() : failure.getMessage())
        .setDoNotRetry(failure.doNotRetry());
    if (failure.serverOverloaded()) {
      exception.setServerOverloaded(true);
    }
    ResponseHeader header = ResponseHeader.newBuilder().setCallId(callId)
        .setException(exception).build();
    return head(allocator, header, null, 0);
  }

  private static ByteBuf head(ByteBufAllocator allocator, ResponseHeader header, Message response,
      int cellBytes) {
    int headerSize = header.getSerializedSize();
    int body = CodedOutputStream.computeUInt32SizeNoTag(headerSize) + headerSize;
    int responseSize = 0;
    if (response != null) {
      responseSize = response.getSerializedSize();
      body += CodedOutputStream.computeUInt32SizeNoTag(responseSize) + responseSize;
    }
    int headBytes = 4 + body;
    ByteBuf head = allocator.directBuffer(headBytes);
    head.writeInt(body + cellBytes);
    CodedOutputStream out = CodedOutputStream.newInstance(head.nioBuffer(4, body));
    try {
      out.writeUInt32NoTag(headerSize);
      header.writeTo(out);
      if (response != null) {
        out.writeUInt32NoTag(responseSize);
        response.writeTo(out);
      }
      out.flush();
    } catch (IOException e) {
      head.release();
      throw new UncheckedIOException("a response did not fit its computed size", e);
    }
    head.writerIndex(headBytes);
    return head;
  }
}
