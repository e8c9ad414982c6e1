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
import org.apache.hbase.thirdparty.com.google.protobuf.WireFormat;

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
    int cellBytes = cellBlock == null ? 0 : cellBlock.readableBytes();
    ByteBuf head = successHead(allocator, callId, response, cellBytes);
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
    return errorFrame(allocator, header);
  }

  /**
   * A success frame's head, its {@code ResponseHeader} written field by field rather than built as
   * a message (two messages and two builders fewer per call): {@code call_id} and, with a cell
   * block, {@code cell_block_meta} holding its {@code length}.
   */
  private static ByteBuf successHead(ByteBufAllocator allocator, int callId, Message response,
      int cellBytes) {
    int metaSize = cellBytes == 0 ? 0
        : CodedOutputStream.computeUInt32Size(CellBlockMeta.LENGTH_FIELD_NUMBER, cellBytes);
    int headerSize = CodedOutputStream.computeUInt32Size(ResponseHeader.CALL_ID_FIELD_NUMBER,
        callId);
    if (cellBytes > 0) {
      headerSize += CodedOutputStream.computeTagSize(ResponseHeader.CELL_BLOCK_META_FIELD_NUMBER)
          + CodedOutputStream.computeUInt32SizeNoTag(metaSize) + metaSize;
    }
    int responseSize = response.getSerializedSize();
    int body = CodedOutputStream.computeUInt32SizeNoTag(headerSize) + headerSize
        + CodedOutputStream.computeUInt32SizeNoTag(responseSize) + responseSize;
    int headBytes = 4 + body;
    ByteBuf head = allocator.directBuffer(headBytes);
    head.writeInt(body + cellBytes);
    CodedOutputStream out = CodedOutputStream.newInstance(head.internalNioBuffer(4, body));
    try {
      out.writeUInt32NoTag(headerSize);
      out.writeUInt32(ResponseHeader.CALL_ID_FIELD_NUMBER, callId);
      if (cellBytes > 0) {
        out.writeTag(ResponseHeader.CELL_BLOCK_META_FIELD_NUMBER,
            WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(metaSize);
        out.writeUInt32(CellBlockMeta.LENGTH_FIELD_NUMBER, cellBytes);
      }
      out.writeUInt32NoTag(responseSize);
      response.writeTo(out);
      out.flush();
    } catch (IOException e) {
      head.release();
      throw new UncheckedIOException("a response did not fit its computed size", e);
    }
    head.writerIndex(headBytes);
    return head;
  }

  /** An error frame: the delimited header alone. */
  private static ByteBuf errorFrame(ByteBufAllocator allocator, ResponseHeader header) {
    int headerSize = header.getSerializedSize();
    int body = CodedOutputStream.computeUInt32SizeNoTag(headerSize) + headerSize;
    ByteBuf frame = allocator.directBuffer(4 + body);
    frame.writeInt(body);
    CodedOutputStream out = CodedOutputStream.newInstance(frame.nioBuffer(4, body));
    try {
      out.writeUInt32NoTag(headerSize);
      header.writeTo(out);
      out.flush();
    } catch (IOException e) {
      frame.release();
      throw new UncheckedIOException("an error response did not fit its computed size", e);
    }
    frame.writerIndex(4 + body);
    return frame;
  }
}
