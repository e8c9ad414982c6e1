package dev.cellar.server.rpc;

import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;

/**
 * What the server takes from a request's {@code RequestHeader}: the call id, where the method name
 * lies, whether a request message follows, the cell block's length, the priority and the timeout.
 * {@link #read} finds them in the header's bytes without building its message; a header it does not
 * read (a field it does not know, bytes that are not well-formed) is parsed as a message instead
 * ({@link #from}), so nothing a client sends is read differently.
 *
 * <p>The layout read ({@code RPC.proto}, protobuf): 1 {@code call_id} varint, 2 {@code trace_info}
 * (skipped), 3 {@code method_name} bytes, 4 {@code request_param} varint, 5 {@code cell_block_meta}
 * (its field 1, {@code length}, a varint), 6 {@code priority} varint, 7 {@code timeout} varint, 8
 * {@code attribute} (skipped).
 *
 * <p>Not thread-safe: one per connection, reused from request to request (a connection's requests
 * are read by its event loop, one at a time).
 */
final class RequestHead {

  private static final int VARINT = 0;
  private static final int LENGTH_DELIMITED = 2;

  int callId;
  int methodOffset;
  int methodLength;
  boolean requestParam;
  int cellBlockLength;
  int priority;
  int timeout;

  /** Where the request message starts and its length (0 when the header says none follows). */
  int paramStart;

  int paramLength;

  /** The header as a message when it was parsed as one. */
  RequestHeader parsed;

  private ByteBuffer buffer;
  private int position;

  /**
   * Reads a request frame's start in [from, end) of {@code frame}: the varint-delimited header,
   * then the varint length of the request message when the header says one follows; false if it
   * cannot (the caller then parses the header as a message).
   */
  boolean readFrame(ByteBuffer frame, int from, int end) {
    buffer = frame;
    position = from;
    long headerLength = varint(end);
    if (headerLength < 0 || headerLength > end - position) {
      return false;
    }
    int headerEnd = position + (int) headerLength;
    if (!read(position, headerEnd)) {
      return false;
    }
    position = headerEnd;
    paramLength = 0;
    if (requestParam) {
      long length = varint(end);
      if (length < 0 || length > end - position) {
        return false;
      }
      paramLength = (int) length;
    }
    paramStart = position;
    return true;
  }

  private boolean read(int from, int end) {
    position = from;
    parsed = null;
    callId = 0;
    methodLength = -1;
    requestParam = false;
    cellBlockLength = 0;
    priority = 0;
    timeout = 0;
    while (position < end) {
      long tag = varint(end);
      if (tag < 0) {
        return false;
      }
      int field = (int) (tag >>> 3);
      int type = (int) (tag & 7);
      if (type == VARINT) {
        long value = varint(end);
        if (value < 0) {
          return false;
        }
        switch (field) {
          case 1 -> callId = (int) value;
          case 4 -> requestParam = value != 0;
          case 6 -> priority = (int) value;
          case 7 -> timeout = (int) value;
          default -> {
            return false;
          }
        }
      } else if (type == LENGTH_DELIMITED) {
        long length = varint(end);
        if (length < 0 || length > end - position) {
          return false;
        }
        int start = position;
        position += (int) length;
        switch (field) {
          case 2, 8 -> {}
          case 3 -> {
            methodOffset = start;
            methodLength = (int) length;
          }
          case 5 -> {
            if (!cellBlockMeta(start, position)) {
              return false;
            }
          }
          default -> {
            return false;
          }
        }
      } else {
        return false;
      }
    }
    return methodLength >= 0;
  }

  private boolean cellBlockMeta(int from, int end) {
    int resume = position;
    position = from;
    while (position < end) {
      long tag = varint(end);
      long value = tag == (1 << 3 | VARINT) ? varint(end) : -1;
      if (value < 0 || value > Integer.MAX_VALUE) {
        return false;
      }
      cellBlockLength = (int) value;
    }
    position = resume;
    return true;
  }

  /**
   * Takes the fields of a header parsed as a message; the request message starts at {@code
   * paramStart} and is {@code paramLength} long.
   */
  void from(RequestHeader header, int paramStart, int paramLength) {
    this.paramStart = paramStart;
    this.paramLength = paramLength;
    parsed = header;
    callId = header.getCallId();
    methodLength = -1;
    requestParam = header.getRequestParam();
    cellBlockLength = header.hasCellBlockMeta() ? header.getCellBlockMeta().getLength() : 0;
    priority = header.getPriority();
    timeout = header.getTimeout();
  }

  /** A varint of at most 64 bits at the position, or -1 if malformed or running past end. */
  private long varint(int end) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= end) {
        return -1;
      }
      byte b = buffer.get(position++);
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    return -1;
  }
}
