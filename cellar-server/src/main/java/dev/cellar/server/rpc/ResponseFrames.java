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
 * bytes. Each frame is one buffer (the head written in the room a cell block of copies keeps before
 * its cells; or a {@link PinnedCellBlock}, already a composite, with the head as its first part; or
 * a composite of the head and the cell block), so that frames written from several handler threads
 * never interleave. Stateless.
 */
public final class ResponseFrames {

  private ResponseFrames() {}

  /**
   * A success frame; takes ownership of {@code cellBlock} (null for none), a block from {@link
   * CellBlockBuilder#takeRetained}, which becomes the frame's tail without being copied: the head
   * is written into the room a block of copies keeps before its cells, or is the first part of a
   * {@link PinnedCellBlock}, or else of a composite with the block.
   */
  public static ByteBuf success(
      ByteBufAllocator allocator, int callId, Message response, ByteBuf cellBlock) {
    if (cellBlock != null && cellBlock.readableBytes() == 0) {
      cellBlock.release();
      cellBlock = null;
    }
    int cellBytes = cellBlock == null ? 0 : cellBlock.readableBytes();
    int headBytes = successHeadBytes(callId, response, cellBytes);
    if (cellBlock != null
        && !(cellBlock instanceof PinnedCellBlock)
        && cellBlock.readerIndex() >= headBytes) {
      int at = cellBlock.readerIndex() - headBytes;
      writeSuccessHead(cellBlock, at, callId, response, cellBytes);
      cellBlock.readerIndex(at);
      return cellBlock;
    }
    ByteBuf head = allocator.directBuffer(headBytes);
    writeSuccessHead(head, 0, callId, response, cellBytes);
    head.writerIndex(headBytes);
    if (cellBlock == null) {
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
    ExceptionResponse.Builder exception =
        ExceptionResponse.newBuilder()
            .setExceptionClassName(failure.className())
            .setStackTrace(
                failure.getMessage() == null ? failure.className() : failure.getMessage())
            .setDoNotRetry(failure.doNotRetry());
    if (failure.serverOverloaded()) {
      exception.setServerOverloaded(true);
    }
    ResponseHeader header =
        ResponseHeader.newBuilder().setCallId(callId).setException(exception).build();
    return errorFrame(allocator, header);
  }

  /** The size of the delimited {@code ResponseHeader} {@link #writeSuccessHead} writes. */
  private static int successHeaderSize(int callId, int cellBytes) {
    int size = CodedOutputStream.computeUInt32Size(ResponseHeader.CALL_ID_FIELD_NUMBER, callId);
    if (cellBytes > 0) {
      int metaSize = metaSize(cellBytes);
      size +=
          CodedOutputStream.computeTagSize(ResponseHeader.CELL_BLOCK_META_FIELD_NUMBER)
              + CodedOutputStream.computeUInt32SizeNoTag(metaSize)
              + metaSize;
    }
    return size;
  }

  private static int metaSize(int cellBytes) {
    return CodedOutputStream.computeUInt32Size(CellBlockMeta.LENGTH_FIELD_NUMBER, cellBytes);
  }

  /** The bytes after the frame's length and before the cell block. */
  private static int successBody(int callId, Message response, int cellBytes) {
    int headerSize = successHeaderSize(callId, cellBytes);
    int responseSize = response.getSerializedSize();
    return CodedOutputStream.computeUInt32SizeNoTag(headerSize)
        + headerSize
        + CodedOutputStream.computeUInt32SizeNoTag(responseSize)
        + responseSize;
  }

  /** The bytes of a success frame before its cell block. */
  private static int successHeadBytes(int callId, Message response, int cellBytes) {
    return 4 + successBody(callId, response, cellBytes);
  }

  /**
   * Writes a success frame's head at {@code at} in {@code target}: the frame's length, then its
   * {@code ResponseHeader} written field by field rather than built as a message (two messages and
   * two builders fewer per call), {@code call_id} and, with a cell block, {@code cell_block_meta}
   * holding its {@code length}; then the response message.
   */
  private static void writeSuccessHead(
      ByteBuf target, int at, int callId, Message response, int cellBytes) {
    int headerSize = successHeaderSize(callId, cellBytes);
    int body = successBody(callId, response, cellBytes);
    target.setInt(at, body + cellBytes);
    CodedOutputStream out = CodedOutputStream.newInstance(target.internalNioBuffer(at + 4, body));
    try {
      out.writeUInt32NoTag(headerSize);
      out.writeUInt32(ResponseHeader.CALL_ID_FIELD_NUMBER, callId);
      if (cellBytes > 0) {
        out.writeTag(
            ResponseHeader.CELL_BLOCK_META_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(metaSize(cellBytes));
        out.writeUInt32(CellBlockMeta.LENGTH_FIELD_NUMBER, cellBytes);
      }
      out.writeUInt32NoTag(response.getSerializedSize());
      response.writeTo(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("a response did not fit its computed size", e);
    }
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
